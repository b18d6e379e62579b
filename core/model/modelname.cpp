#include "core/model/modelname.h"

#include <array>

namespace sv {

std::string canonicalModel(std::string_view model) {
    // Letters and digits only, lower case: "ResNet-50_v1.5" -> "resnet50v15".
    std::string bare;
    for (char c : model) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            bare += c;
        else if (c != '-' && c != '_' && c != '.')
            return std::string(model);
    }
    static constexpr std::array<std::string_view, 3> names{"r50", "rn50", "resnet50"};
    // gluon-cv's resnet50_v1b is v1.5's network (the stride in the bottleneck's 3x3 convolution,
    // not its 1x1) and DLPerf's MXNet gluon-cv runs name their logs r50_ (its RN50v1b tables);
    // v1c and v1d (a deeper stem) are other networks and keep their names.
    static constexpr std::array<std::string_view, 3> versions{"", "v15", "v1b"};
    for (std::string_view n : names)
        for (std::string_view v : versions)
            if (bare.size() == n.size() + v.size() && bare.compare(0, n.size(), n) == 0 &&
                bare.compare(n.size(), std::string_view::npos, v) == 0)
                return "r50";
    return std::string(model);
}

} // namespace sv
