// A header of the framework that includes the driver: up a layer.
#pragma once
#include "Driver/Runner.h"
#include "Core/Fine.h"
