// Names scale_kernel.cu only in a comment and a string: no includer.
const char *Name = "scale_kernel.cu";
#if 0
#include "missing.cu"
#endif
