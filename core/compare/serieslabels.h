#pragma once
// What a compared series is called when none is given: its directory's name, and where two
// directories share one (two trees both called resnet50), what tells them apart: their
// frameworks, else their folders.

#include <string>
#include <vector>

namespace sv {

struct SeriesOrigin {
    std::string directory;               // as given (relative or absolute)
    std::vector<std::string> frameworks; // its logs' ("TensorFlow 2"), in any order; may be empty
};

// One label per series, in order: the directory's name ("resnet50"); for directories that share
// it, the name and framework ("resnet50 (TensorFlow 2)") when the frameworks differ, else the
// shortest tail of the path that differs ("tf2/resnet50", "mxnet/resnet50"), else " (N)", N the
// series' place from 1.
std::vector<std::string> distinguishingLabels(const std::vector<SeriesOrigin>& series);

} // namespace sv
