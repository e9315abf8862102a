// A project's own header named cuda.h, as Rodinia's util/cuda/cuda.h: no
// CUDA_VERSION, no include guard.
#ifdef __cplusplus
extern "C" {
#endif
void setdevice(void);
#ifdef __cplusplus
}
#endif
