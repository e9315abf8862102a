// warplint fallback: clang's __clang_cuda_intrinsics.h includes this toolkit header;
// without a toolkit there is nothing to add.
#pragma once
