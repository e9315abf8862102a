// A relative include is still an include.
#pragma once
#include "../Core/Fine.h"
