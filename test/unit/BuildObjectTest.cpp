#include "Driver/BuildObject.h"
#include <gtest/gtest.h>

using namespace warplint;

TEST(BuildObject, OutputOfACompileCommand) {
  // -o, in its spellings, resolved against the command's directory.
  EXPECT_EQ(
      buildOutputOf({"nvcc", "-c", "k.cu", "-o", "obj/k.o"}, "/s/k.cu", "/b"),
      "/b/obj/k.o");
  EXPECT_EQ(buildOutputOf({"nvcc", "-c", "k.cu", "--output-file=/o/k.o"},
                          "/s/k.cu", "/b"),
            "/o/k.o");
  EXPECT_EQ(buildOutputOf({"clang++", "-c", "k.cu", "-ok.o"}, "/s/k.cu", "/b"),
            "/b/k.o");
  // -c without -o: the source's name with .o, where the command runs.
  EXPECT_EQ(buildOutputOf({"nvcc", "-O3", "-c", "../src/k.cu"}, "/s/k.cu",
                          "/b/build"),
            "/b/build/k.o");
  // A whole build to an executable.
  EXPECT_EQ(buildOutputOf({"nvcc", "k.cu", "-o", "app"}, "/s/k.cu", "/b"),
            "/b/app");
  // nvcc options that start with -o are not outputs.
  EXPECT_EQ(buildOutputOf({"nvcc", "-c", "-odir", "x", "-optf", "f", "k.cu"},
                          "/s/k.cu", "/b"),
            "/b/k.o");
}

TEST(BuildObject, NoOutputWhereTheCommandWritesNoObject) {
  EXPECT_EQ(buildOutputOf({"nvcc", "k.cu"}, "/s/k.cu", "/b"), "");
  EXPECT_EQ(
      buildOutputOf({"nvcc", "-E", "k.cu", "-o", "k.ii"}, "/s/k.cu", "/b"), "");
  EXPECT_EQ(
      buildOutputOf({"nvcc", "-ptx", "k.cu", "-o", "k.ptx"}, "/s/k.cu", "/b"),
      "");
  EXPECT_EQ(
      buildOutputOf({"clang++", "-fsyntax-only", "k.cu"}, "/s/k.cu", "/b"), "");
}

TEST(BuildObject, NotACubinOrFatbin) {
  BuildObject O;
  EXPECT_FALSE(O.addCubin("not an ELF file"));
  O.addFatbin(std::string(64, '\0'));
  EXPECT_FALSE(O.covers("sm_80"));
}

TEST(BuildObject, MissingObject) {
  std::string Why;
  EXPECT_FALSE(BuildObject::read("/no/such/k.o", "/no/such/k.cu", Why));
  EXPECT_NE(Why.find("does not exist"), std::string::npos);
}
