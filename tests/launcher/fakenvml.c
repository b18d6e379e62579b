/* A stand-in for the driver's libnvidia-ml.so.1 (no GPU here): exports the NVML functions
 * ScaleView calls, with NVML's signatures, and counts each GPU's energy up as a real board does:
 * millijoules since the library was loaded (the driver's load, for a real one), advancing in
 * 100 ms steps at a constant power. The tests load it through the product's own run-time lookup
 * (SCALEVIEW_NVML_LIBRARY). Set by environment, read at nvmlInit_v2:
 *   FAKE_NVML_GPUS      how many GPUs (default 2)
 *   FAKE_NVML_WATTS     each GPU's power (default 250)
 *   FAKE_NVML_NO_ENERGY 1: the boards have no energy counter (NVML_ERROR_NOT_SUPPORTED), as before
 *                       Volta
 *   FAKE_NVML_NO_DRIVER 1: nvmlInit_v2 fails as without the kernel driver */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct nvmlDevice_st *nvmlDevice_t;
typedef int nvmlReturn_t;

enum { kSuccess = 0, kUninitialized = 1, kInvalidArgument = 2, kNotSupported = 3,
       kInsufficientSize = 7, kDriverNotLoaded = 9 };
#define MAX_GPUS 16

struct nvmlDevice_st {
    unsigned index;
};
static struct nvmlDevice_st devices[MAX_GPUS];
static int initialised;
static unsigned gpus = 2;
static double watts = 250.0;
static int noEnergy;
static double loaded;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

__attribute__((constructor)) static void onLoad(void) {
    loaded = now();
}

static int flag(const char *name) {
    const char *v = getenv(name);
    return v && strcmp(v, "1") == 0;
}

nvmlReturn_t nvmlInit_v2(void) {
    if (flag("FAKE_NVML_NO_DRIVER")) return kDriverNotLoaded;
    const char *n = getenv("FAKE_NVML_GPUS"), *w = getenv("FAKE_NVML_WATTS");
    if (n) gpus = (unsigned)atoi(n) > MAX_GPUS ? MAX_GPUS : (unsigned)atoi(n);
    if (w) watts = atof(w);
    noEnergy = flag("FAKE_NVML_NO_ENERGY");
    for (unsigned i = 0; i < MAX_GPUS; ++i)
        devices[i].index = i;
    ++initialised; /* reference-counted, as NVML's */
    return kSuccess;
}

nvmlReturn_t nvmlShutdown(void) {
    if (initialised > 0) --initialised;
    return kSuccess;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count) {
    if (!initialised) return kUninitialized;
    if (!count) return kInvalidArgument;
    *count = gpus;
    return kSuccess;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device) {
    if (!initialised) return kUninitialized;
    if (index >= gpus || !device) return kInvalidArgument;
    *device = &devices[index];
    return kSuccess;
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length) {
    if (!initialised) return kUninitialized;
    if (!device || !name) return kInvalidArgument;
    if (snprintf(name, length, "NVIDIA H100 80GB HBM3") >= (int)length) return kInsufficientSize;
    return kSuccess;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length) {
    if (!initialised) return kUninitialized;
    if (!device || !uuid) return kInvalidArgument;
    if (snprintf(uuid, length, "GPU-fa4e0000-0000-0000-0000-%012u", device->index) >= (int)length)
        return kInsufficientSize;
    return kSuccess;
}

nvmlReturn_t nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t device, unsigned long long *energy) {
    if (!initialised) return kUninitialized;
    if (!device || !energy) return kInvalidArgument;
    if (noEnergy) return kNotSupported;
    /* Steps of 100 ms, from an origin well above zero (the driver loaded long before). */
    const double steps = (double)(long long)((now() - loaded) * 10.0) / 10.0;
    *energy = 5000000000ULL + (unsigned long long)(steps * watts * 1000.0);
    return kSuccess;
}

nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int *power) {
    if (!initialised) return kUninitialized;
    if (!device || !power) return kInvalidArgument;
    *power = (unsigned int)(watts * 1000.0);
    return kSuccess;
}

const char *nvmlErrorString(nvmlReturn_t result) {
    switch (result) {
    case kSuccess: return "Success";
    case kUninitialized: return "Uninitialized";
    case kInvalidArgument: return "Invalid Argument";
    case kNotSupported: return "Not Supported";
    case kInsufficientSize: return "Insufficient Size";
    case kDriverNotLoaded: return "Driver Not Loaded";
    default: return "Unknown Error";
    }
}
