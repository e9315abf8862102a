#pragma once
#include "Core/Fine.h"
