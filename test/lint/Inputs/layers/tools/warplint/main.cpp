#include "../plugin/Helper.h"
