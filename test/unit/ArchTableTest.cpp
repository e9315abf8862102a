#include "Arch/ArchTable.h"
#include "llvm/Support/MemoryBuffer.h"
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

using namespace warplint;

static const std::string DataDir = WARPLINT_SOURCE_DIR "/arch-data";

TEST(ArchTable, LoadsEveryShippedTable) {
  auto T = ArchTable::loadDirectory(DataDir);
  ASSERT_TRUE(bool(T)) << llvm::toString(T.takeError());
  for (const char *Name : {"sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62",
                           "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87",
                           "sm_89", "sm_90", "sm_100", "sm_120"})
    EXPECT_NE(T->find(Name), nullptr) << Name;
  EXPECT_EQ(T->find("sm_999"), nullptr);
}

TEST(ArchTable, SpellingsOfOneArch) {
  auto T = ArchTable::loadDirectory(DataDir);
  ASSERT_TRUE(bool(T));
  const ArchInfo *A = T->find("sm_80");
  EXPECT_EQ(T->find("compute_80"), A);
  EXPECT_EQ(T->find("8.0"), A);
  EXPECT_EQ(T->find("80"), A);
  EXPECT_EQ(T->find("sm_90a")->Name, "sm_90");
}

TEST(ArchTable, IndependentSchedulingStartsWithVolta) {
  auto T = ArchTable::loadDirectory(DataDir);
  ASSERT_TRUE(bool(T));
  EXPECT_FALSE(T->find("sm_61")->independent_thread_scheduling);
  EXPECT_TRUE(T->find("sm_70")->independent_thread_scheduling);
  const ArchInfo *First = T->firstWhere(
      [](const ArchInfo &A) { return !A.legacy_warp_intrinsics; });
  ASSERT_NE(First, nullptr);
  EXPECT_EQ(First->Name, "sm_70");
}

TEST(ArchTable, EveryValueCitesASource) {
  auto T = ArchTable::loadDirectory(DataDir);
  ASSERT_TRUE(bool(T));
  for (const ArchInfo &A : T->all())
    for (const auto &[Field, Source] : A.Sources)
      EXPECT_GT(Source.size(), 10u) << A.Name << "." << Field;
}

static std::string readSm80() {
  auto B = llvm::MemoryBuffer::getFile(DataDir + "/sm_80.json");
  return B ? (*B)->getBuffer().str() : "";
}

TEST(ArchTable, MissingFieldNamesFileAndField) {
  auto J = nlohmann::json::parse(readSm80());
  J["fields"].erase("shared_memory_banks");
  auto A = ArchTable::parseTable(J.dump(), "broken/sm_80.json");
  ASSERT_FALSE(bool(A));
  std::string M = llvm::toString(A.takeError());
  EXPECT_NE(M.find("broken/sm_80.json"), std::string::npos) << M;
  EXPECT_NE(M.find("fields.shared_memory_banks"), std::string::npos) << M;
}

TEST(ArchTable, WrongTypeIsAnError) {
  auto J = nlohmann::json::parse(readSm80());
  J["fields"]["warp_size"]["value"] = "thirty-two";
  auto A = ArchTable::parseTable(J.dump(), "sm_80.json");
  ASSERT_FALSE(bool(A));
  EXPECT_NE(llvm::toString(A.takeError()).find("fields.warp_size.value"),
            std::string::npos);
}

TEST(ArchTable, MissingSourceIsAnError) {
  auto J = nlohmann::json::parse(readSm80());
  J["fields"]["global_sector_bytes"].erase("source");
  auto A = ArchTable::parseTable(J.dump(), "sm_80.json");
  ASSERT_FALSE(bool(A));
  EXPECT_NE(llvm::toString(A.takeError()).find("global_sector_bytes.source"),
            std::string::npos);
}

TEST(ArchTable, NotJson) {
  auto A = ArchTable::parseTable("{ nope", "x/sm_80.json");
  ASSERT_FALSE(bool(A));
  EXPECT_NE(llvm::toString(A.takeError()).find("x/sm_80.json"),
            std::string::npos);
}

// The loader's field list (ArchFields.def) and schema.json list the same
// fields, so the schema the tables are validated against is the one the
// tool reads.
TEST(ArchTable, SchemaListsTheLoadersFields) {
  auto B = llvm::MemoryBuffer::getFile(DataDir + "/schema.json");
  ASSERT_TRUE(bool(B));
  auto Schema = nlohmann::json::parse((*B)->getBuffer().str());
  std::set<std::string> FromSchema;
  for (const auto &R : Schema["properties"]["fields"]["required"])
    FromSchema.insert(R.get<std::string>());
  std::set<std::string> FromLoader = {
#define ARCH_FIELD(NAME, TYPE, KIND) #NAME,
#include "Arch/ArchFields.def"
  };
  EXPECT_EQ(FromSchema, FromLoader);
}

// The Feature fields: which targets lack each (the device parse declares
// what the toolkit leaves out for them), and the first target that has it,
// which arch-unsupported-feature names.
TEST(ArchTable, FeaturesAndTheFirstTargetWithEach) {
  auto T = ArchTable::loadDirectory(DataDir);
  ASSERT_TRUE(bool(T));
  auto FirstWith = [&](llvm::StringRef Feature) -> std::string {
    const ArchInfo *A = T->firstWhere([&](const ArchInfo &A) {
      return A.hasFeature(Feature).value_or(false);
    });
    return A ? A->Name : "none";
  };
  EXPECT_EQ(FirstWith("atomic_add_fp64"), "sm_60");
  EXPECT_EQ(FirstWith("fp16_arithmetic"), "sm_53");
  EXPECT_EQ(FirstWith("bf16_arithmetic"), "sm_80");
  EXPECT_EQ(FirstWith("nanosleep"), "sm_70");
  EXPECT_EQ(FirstWith("warp_reduce_functions"), "sm_80");
  EXPECT_EQ(FirstWith("warp_match_functions"), "sm_70");
  EXPECT_EQ(FirstWith("thread_block_clusters"), "sm_90");
  EXPECT_EQ(FirstWith("tensor_memory_access"), "sm_90");
  // A feature, once a target has it, stays in the later ones.
  const std::vector<ArchInfo> &All = T->all();
  for (size_t I = 1; I < All.size(); ++I)
    for (auto [Feature, Has] : All[I - 1].features()) {
      if (Has) {
        EXPECT_TRUE(*All[I].hasFeature(Feature))
            << All[I].Name << " " << Feature.str();
      }
    }
  // Configuration fields and numbers are not features.
  const ArchInfo *Sm80 = T->find("sm_80");
  EXPECT_EQ(Sm80->hasFeature("cache_config_preference"), std::nullopt);
  EXPECT_EQ(Sm80->hasFeature("warp_size"), std::nullopt);
  EXPECT_EQ(Sm80->features().size(), 8u);
}

// Only Volta and later split one data cache between L1 and shared memory:
// the L1/shared preference and the carveout mean something there, and the
// two fields agree.
TEST(ArchTable, CachePreferenceWhereThereIsACarveout) {
  auto T = ArchTable::loadDirectory(DataDir);
  ASSERT_TRUE(bool(T));
  for (const ArchInfo &A : T->all()) {
    EXPECT_EQ(A.cache_config_preference, !A.shared_memory_carveouts_kb.empty())
        << A.Name;
    EXPECT_FALSE(A.eight_byte_bank_mode) << A.Name;
  }
  EXPECT_EQ(T->firstWhere([](const ArchInfo &A) {
               return A.cache_config_preference;
             })->Name,
            "sm_70");
}
