// The kernels' resources as the user's own build compiled them: the
// registers per thread and the static shared memory each kernel of the
// object, executable or cubin that the file's compile command writes,
// read from the cubins in it. Exact, and no compile: what ptxas allocated
// for the build the program runs.
//
// nvcc puts the device code of a host object or executable in its
// .nv_fatbin section: a fat binary (0xBA55ED50) of entries, each PTX or a
// cubin (an ELF file for the NVIDIA CUDA machine) for one target. A cubin's
// .nv.info section lists each kernel's registers (EIATTR_REGCOUNT, 0x2f:
// the kernel's symbol, the count); its .nv.shared.<kernel> section holds
// the kernel's static shared memory, with, from sm_90 on (where the cubin
// has .nv.shared.reserved sections), the 1 KB a block reserves for the
// system (reserved_shared_memory_per_block) added. The
// layout is what `cuobjdump --dump-resource-usage` reads; measured against
// `ptxas -v` in test/integration/registers-from-build.test.
#pragma once
#include "Arch/ArchTable.h"
#include "Core/Services.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <optional>
#include <string>

namespace warplint {

class BuildObject {
public:
  // The object at Path, if it exists, is newer than Source and holds at
  // least one cubin; else nothing, and Why says which of these failed.
  static std::optional<BuildObject>
  read(llvm::StringRef Path, llvm::StringRef Source, std::string &Why);
  // Kernels from a cubin's bytes (an ELF of the CUDA machine); false if
  // they are not one.
  bool addCubin(llvm::StringRef Bytes);
  // Kernels from a fat binary's bytes (one or more, back to back).
  void addFatbin(llvm::StringRef Bytes);

  // Whether the object has a cubin for Target (sm_90).
  bool covers(llvm::StringRef Target) const {
    return Kernels.count(Target.str());
  }
  std::optional<KernelResources> lookup(const ArchInfo &Target,
                                        llvm::StringRef Mangled,
                                        std::string &Why) const;
  const std::string &path() const { return Path; }

private:
  struct Kernel {
    unsigned Registers = 0;
    uint64_t SharedSection = 0;   // .nv.shared.<kernel>'s size
    bool ReserveIncluded = false; // the block's system reserve is in it
  };
  std::string Path;
  // Target name (sm_90) → mangled kernel name → what its cubin says.
  std::map<std::string, std::map<std::string, Kernel>> Kernels;
  unsigned Compressed = 0; // cubins left out: compressed in a way not read
};

// The file the compile command of Source writes, resolved against
// Directory: its -o / --output-file / -o<file>, or with -c and none, the
// source's name with .o in Directory; empty when the command names no
// output it writes (a -E, -M, -fsyntax-only or --cubin-less ptx run).
std::string buildOutputOf(llvm::ArrayRef<std::string> Command,
                          llvm::StringRef Source, llvm::StringRef Directory);

} // namespace warplint
