// warplint fallback: the minimal CUDA declarations stand in for the toolkit.
#pragma once
#include "warplint_cuda_fallback.h"
