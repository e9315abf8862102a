#include "Driver/BuildObject.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace warplint {

namespace {

constexpr uint32_t FatbinMagic = 0xBA55ED50;
constexpr uint16_t FatbinCubin = 2; // an entry's kind: 1 PTX, 2 ELF
constexpr uint64_t FatbinLZ4 = 0x2000, FatbinZstd = 0x8000;
constexpr uint8_t EIATTRRegCount = 0x2f;
constexpr uint8_t EIFormatSizedValue = 0x04;

uint16_t u16(StringRef B, size_t At) {
  return support::endian::read16le(B.data() + At);
}
uint32_t u32(StringRef B, size_t At) {
  return support::endian::read32le(B.data() + At);
}
uint64_t u64(StringRef B, size_t At) {
  return support::endian::read64le(B.data() + At);
}

} // namespace

bool BuildObject::addCubin(StringRef Bytes) {
  Expected<object::ELF64LEFile> File = object::ELF64LEFile::create(Bytes);
  if (!File) {
    consumeError(File.takeError());
    return false;
  }
  const auto &Header = File->getHeader();
  if (Header.e_machine != ELF::EM_CUDA)
    return false;
  // The target: bits 8-15 of e_flags in the toolkit's current layout
  // (sm_80: 0x6005004, sm_90: 0x6005a04), the low byte in the older one.
  unsigned SM = (Header.e_flags >> 8) & 0xff;
  if (SM < 30)
    SM = Header.e_flags & 0xff;
  auto Sections = File->sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return false;
  }
  const object::ELF64LE::Shdr *SymTab = nullptr;
  for (const auto &S : *Sections)
    if (S.sh_type == ELF::SHT_SYMTAB)
      SymTab = &S;
  if (!SymTab)
    return false;
  auto Symbols = File->symbols(SymTab);
  auto Strings = File->getStringTableForSymtab(*SymTab);
  if (!Symbols || !Strings) {
    if (!Symbols)
      consumeError(Symbols.takeError());
    if (!Strings)
      consumeError(Strings.takeError());
    return false;
  }
  auto SymbolName = [&](uint32_t Index) -> std::string {
    if (Index >= Symbols->size())
      return "";
    Expected<StringRef> N = (*Symbols)[Index].getName(*Strings);
    if (!N) {
      consumeError(N.takeError());
      return "";
    }
    return N->str();
  };
  std::map<std::string, Kernel> &Out = Kernels["sm_" + std::to_string(SM)];
  // From sm_90 on, a kernel's .nv.shared section includes the block's
  // system reserve, and the cubin has .nv.shared.reserved sections (ptxas
  // -v: 8000 bytes smem, a 9024-byte section; sm_75 to sm_89: 8000).
  bool Reserves = false;
  for (const auto &S : *Sections)
    if (Expected<StringRef> Name = File->getSectionName(S))
      Reserves |= Name->starts_with(".nv.shared.reserved");
    else
      consumeError(Name.takeError());
  for (const auto &S : *Sections) {
    Expected<StringRef> Name = File->getSectionName(S);
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (Name->consume_front(".nv.shared.") && !Name->starts_with("reserved")) {
      Out[Name->str()].SharedSection = S.sh_size;
      Out[Name->str()].ReserveIncluded = Reserves;
      continue;
    }
    if (*Name != ".nv.info")
      continue;
    Expected<ArrayRef<uint8_t>> Data = File->getSectionContents(S);
    if (!Data) {
      consumeError(Data.takeError());
      continue;
    }
    StringRef Info(reinterpret_cast<const char *>(Data->data()), Data->size());
    // Attributes: a format byte, an attribute byte, then by format nothing
    // (1), a byte (2), a 16-bit value (3) or a 16-bit size and that many
    // bytes (4).
    for (size_t At = 0; At + 2 <= Info.size();) {
      uint8_t Format = uint8_t(Info[At]), Attr = uint8_t(Info[At + 1]);
      size_t Next = At + 2;
      if (Format == 2)
        Next = At + 3;
      else if (Format == 3)
        Next = At + 4;
      else if (Format == EIFormatSizedValue) {
        if (At + 4 > Info.size())
          break;
        Next = At + 4 + u16(Info, At + 2);
        if (Next > Info.size())
          break;
        if (Attr == EIATTRRegCount && u16(Info, At + 2) == 8) {
          std::string Kernel = SymbolName(u32(Info, At + 4));
          if (!Kernel.empty())
            Out[Kernel].Registers = u32(Info, At + 8);
        }
      } else if (Format != 1)
        break;
      At = Next;
    }
  }
  return true;
}

void BuildObject::addFatbin(StringRef Bytes) {
  // Fat binaries back to back, each 8-aligned: a 16-byte header (magic,
  // version, header size, size of the entries), then the entries (kind,
  // version, header size, payload size; at 28 the target, at 40 the
  // flags, at 56 the size before compression).
  for (size_t At = 0; At + 16 <= Bytes.size();) {
    if (u32(Bytes, At) != FatbinMagic) {
      At += 8;
      continue;
    }
    size_t Header = u16(Bytes, At + 6);
    uint64_t Size = u64(Bytes, At + 8);
    size_t End = std::min<uint64_t>(Bytes.size(), At + Header + Size);
    for (size_t E = At + Header; E + 16 <= End;) {
      uint16_t Kind = u16(Bytes, E);
      uint32_t EntryHeader = u32(Bytes, E + 4);
      uint64_t Payload = u64(Bytes, E + 8);
      if (EntryHeader < 16 || E + EntryHeader + Payload > End)
        break;
      StringRef Body = Bytes.substr(E + EntryHeader, Payload);
      uint64_t Flags = EntryHeader >= 48 ? u64(Bytes, E + 40) : 0;
      if (Kind == FatbinCubin) {
        if (Flags & FatbinZstd && EntryHeader >= 64 &&
            compression::zstd::isAvailable()) {
          SmallVector<uint8_t, 0> Plain;
          ArrayRef<uint8_t> In(reinterpret_cast<const uint8_t *>(Body.data()),
                               Body.size());
          if (Error Err = compression::zstd::decompress(In, Plain,
                                                        u64(Bytes, E + 56))) {
            consumeError(std::move(Err));
            ++Compressed;
          } else {
            addCubin(StringRef(reinterpret_cast<const char *>(Plain.data()),
                               Plain.size()));
          }
        } else if (Flags & (FatbinLZ4 | FatbinZstd)) {
          ++Compressed;
        } else {
          addCubin(Body);
        }
      }
      E += EntryHeader + Payload;
    }
    At = alignTo(std::max<size_t>(End, At + 16), 8);
  }
}

std::optional<BuildObject> BuildObject::read(StringRef Path, StringRef Source,
                                             std::string &Why) {
  sys::fs::file_status Object, Src;
  if (sys::fs::status(Path, Object) || !sys::fs::exists(Object)) {
    Why = "the build's output '" + Path.str() + "' does not exist";
    return std::nullopt;
  }
  if (!sys::fs::status(Source, Src) &&
      Object.getLastModificationTime() < Src.getLastModificationTime()) {
    Why = "the build's output '" + Path.str() + "' is older than the source";
    return std::nullopt;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    Why = "the build's output '" + Path.str() +
          "' cannot be read: " + Buffer.getError().message();
    return std::nullopt;
  }
  BuildObject Out;
  Out.Path = Path.str();
  StringRef Bytes = (*Buffer)->getBuffer();
  if (!Out.addCubin(Bytes)) {
    Expected<std::unique_ptr<object::ObjectFile>> File =
        object::ObjectFile::createObjectFile((*Buffer)->getMemBufferRef());
    if (!File) {
      consumeError(File.takeError());
    } else {
      for (const object::SectionRef &S : (*File)->sections()) {
        Expected<StringRef> Name = S.getName();
        if (!Name) {
          consumeError(Name.takeError());
          continue;
        }
        if (*Name != ".nv_fatbin" && *Name != "__nv_fatbin")
          continue;
        if (Expected<StringRef> Data = S.getContents())
          Out.addFatbin(*Data);
        else
          consumeError(Data.takeError());
      }
    }
  }
  if (Out.Kernels.empty()) {
    Why = "the build's output '" + Path.str() + "' holds no cubin" +
          (Out.Compressed
               ? " warplint can read (" + std::to_string(Out.Compressed) +
                     " compressed with LZ4)"
               : "");
    return std::nullopt;
  }
  return Out;
}

std::optional<KernelResources> BuildObject::lookup(const ArchInfo &Target,
                                                   StringRef Mangled,
                                                   std::string &Why) const {
  auto T = Kernels.find(Target.Name);
  if (T == Kernels.end()) {
    Why = "the build's output '" + Path + "' has no cubin for " + Target.Name;
    return std::nullopt;
  }
  auto K = T->second.find(Mangled.str());
  if (K == T->second.end() || !K->second.Registers) {
    Why = "the build's output '" + Path + "' has no kernel '" + Mangled.str() +
          "' for " + Target.Name;
    return std::nullopt;
  }
  KernelResources R;
  R.Registers = K->second.Registers;
  uint64_t Reserve =
      K->second.ReserveIncluded ? Target.reserved_shared_memory_per_block : 0;
  uint64_t Shared = K->second.SharedSection;
  R.SharedBytes = unsigned(Shared >= Reserve ? Shared - Reserve : Shared);
  R.From = Path;
  return R;
}

std::string buildOutputOf(ArrayRef<std::string> Command, StringRef Source,
                          StringRef Directory) {
  std::string Output;
  bool Compile = false;
  for (size_t I = 1; I < Command.size(); ++I) {
    StringRef A = Command[I];
    if ((A == "-o" || A == "--output-file") && I + 1 < Command.size())
      Output = Command[++I];
    else if (A.starts_with("--output-file="))
      Output = A.drop_front(strlen("--output-file=")).str();
    else if (A.starts_with("-o") && A.size() > 2 && !A.starts_with("-opt") &&
             !A.starts_with("-odir") && !A.starts_with("-objtemp"))
      Output = A.drop_front(2).str();
    else if (A == "-c" || A == "--compile" || A == "-cubin" || A == "--cubin" ||
             A == "-fatbin" || A == "--fatbin")
      Compile = true;
    else if (A == "-E" || A == "-M" || A == "-MM" || A == "-fsyntax-only" ||
             A == "-ptx" || A == "--ptx" || A == "--preprocess")
      return "";
  }
  if (Output.empty()) {
    if (!Compile)
      return "";
    Output = sys::path::stem(Source).str() + ".o";
  }
  SmallString<256> Path(Output);
  if (!sys::path::is_absolute(Path)) {
    Path = Directory;
    sys::path::append(Path, Output);
  }
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

} // namespace warplint
