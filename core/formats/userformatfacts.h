#pragma once
// A user format's metadata patterns (core/formats/userformat.h) as a run's facts
// (core/parse/runfacts.h): what the scan of a folder merges into what the log's own parameter
// dumps said.

#include "core/parse/runfacts.h"

#include <string_view>

namespace sv {

class UserFormat;

// The first match of each metadata pattern in text (a log's first lines), with its line and text.
RunFacts userFormatRunFacts(const UserFormat& format, std::string_view text);

} // namespace sv
