// A vendor header whose code reads its user's configuration macro.
#ifndef CONFIG_CODE_H
#define CONFIG_CODE_H
__device__ const float width = CONFIG_WIDTH;
#endif
