#include "launcher/monitor/nvmlenergy.h"

#include <cstdlib>
#include <type_traits>
#include <dlfcn.h>

namespace sv::launcher {
namespace {

// NVML's own types (nvml.h): an opaque device handle and an int-sized return code (0: success).
using Device = struct nvmlDevice_st*;
using Return = int;
constexpr Return kSuccess = 0;
// NVML_DEVICE_NAME_V2_BUFFER_SIZE and NVML_DEVICE_UUID_V2_BUFFER_SIZE (older headers: 64, 80).
constexpr unsigned kTextSize = 96;
// More than any node holds; a count beyond it is a broken library, not a machine.
constexpr unsigned kMaxGpus = 64;

} // namespace

struct NvmlEnergy::Functions {
    Return (*init)() = nullptr;
    Return (*shutdown)() = nullptr;
    Return (*count)(unsigned*) = nullptr;
    Return (*handle)(unsigned, Device*) = nullptr;
    Return (*name)(Device, char*, unsigned) = nullptr;
    Return (*uuid)(Device, char*, unsigned) = nullptr;
    Return (*energy)(Device, unsigned long long*) = nullptr;
    Return (*power)(Device, unsigned*) = nullptr;
    const char* (*errorString)(Return) = nullptr;

    std::string words(const char* call, Return r) const {
        const char* text = errorString ? errorString(r) : nullptr;
        return std::string(call) + ": " + (text ? text : "error " + std::to_string(r));
    }
};

NvmlEnergy::NvmlEnergy(std::string library) {
    if (library.empty()) {
        const char* stated = std::getenv("SCALEVIEW_NVML_LIBRARY");
        library = stated && *stated ? stated : "libnvidia-ml.so.1";
    }
    m_handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!m_handle) {
        const char* why = ::dlerror();
        m_error = why ? why : library + ": cannot be loaded";
        return;
    }
    m_fn = new Functions;
    // The _v2 names: the library still exports the v1 nvmlInit and nvmlDeviceGetCount for old
    // programs, which fail when any GPU is in a bad state or leave GPUs out.
    bool missing = false;
    std::string which;
    auto resolve = [&](auto& fn, const char* symbol) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(m_handle, symbol));
        if (!fn) {
            missing = true;
            which += (which.empty() ? "" : ", ") + std::string(symbol);
        }
    };
    resolve(m_fn->init, "nvmlInit_v2");
    resolve(m_fn->shutdown, "nvmlShutdown");
    resolve(m_fn->count, "nvmlDeviceGetCount_v2");
    resolve(m_fn->handle, "nvmlDeviceGetHandleByIndex_v2");
    resolve(m_fn->name, "nvmlDeviceGetName");
    resolve(m_fn->uuid, "nvmlDeviceGetUUID");
    resolve(m_fn->energy, "nvmlDeviceGetTotalEnergyConsumption");
    resolve(m_fn->power, "nvmlDeviceGetPowerUsage");
    resolve(m_fn->errorString, "nvmlErrorString");
    if (missing) {
        m_error = library + " lacks " + which;
        return;
    }
    if (const Return r = m_fn->init(); r != kSuccess) {
        m_error = m_fn->words("nvmlInit_v2", r);
        return;
    }
    m_initialised = true;
}

NvmlEnergy::~NvmlEnergy() {
    if (m_initialised) m_fn->shutdown();
    delete m_fn;
    if (m_handle) ::dlclose(m_handle);
}

EnergyReading NvmlEnergy::read() const {
    EnergyReading out;
    if (!m_error.empty()) {
        out.error = m_error;
        return out;
    }
    unsigned count = 0;
    if (const Return r = m_fn->count(&count); r != kSuccess) {
        out.error = m_fn->words("nvmlDeviceGetCount_v2", r);
        return out;
    }
    if (count > kMaxGpus) {
        out.error = "nvmlDeviceGetCount_v2: " + std::to_string(count) + " GPUs, more than " +
                    std::to_string(kMaxGpus);
        return out;
    }
    if (count == 0) out.error = "NVML sees no GPU";
    for (unsigned i = 0; i < count; ++i) {
        GpuEnergy g;
        g.index = static_cast<int>(i);
        Device device = nullptr;
        if (const Return r = m_fn->handle(i, &device); r != kSuccess) {
            g.error = m_fn->words("nvmlDeviceGetHandleByIndex_v2", r);
            out.gpus.push_back(std::move(g));
            continue;
        }
        char text[kTextSize] = {};
        if (m_fn->name(device, text, kTextSize) == kSuccess) g.name.assign(text);
        char id[kTextSize] = {};
        if (m_fn->uuid(device, id, kTextSize) == kSuccess) g.uuid.assign(id);
        unsigned long long mj = 0;
        if (const Return r = m_fn->energy(device, &mj); r == kSuccess)
            g.millijoules = mj;
        else
            g.error = m_fn->words("nvmlDeviceGetTotalEnergyConsumption", r);
        unsigned mw = 0;
        if (m_fn->power(device, &mw) == kSuccess) g.powerW = mw / 1000.0;
        out.gpus.push_back(std::move(g));
    }
    return out;
}

} // namespace sv::launcher
