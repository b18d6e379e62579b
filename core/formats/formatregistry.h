#pragma once
// The table of log formats ScaleView reads, and the formats users register at run time: finding
// a format by its id and detecting a log's from its first lines. Adding a framework is adding a
// row (core/parse/logformat.h) to this table.

#include "core/parse/logformat.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace sv {

std::span<const LogFormat> logFormats();
const LogFormat& ngcMxnetFormat();
const LogFormat* findLogFormat(std::string_view id);
// The format of a run or case key: its id's, or NGC MXNet's for a key read before formats
// existed (an empty id).
const LogFormat& logFormatOf(std::string_view id);

// "ngc-mxnet, ngc-pytorch-rn50, ...": for messages that list what is known.
std::string logFormatIds();

// How many lines of a log's start detection reads, at most (and at most kDetectBytes).
inline constexpr int kDetectLines = 2000;
inline constexpr std::size_t kDetectBytes = std::size_t{1} << 20;

// Formats registered at run time (users' format files, core/formats/userformat.h), tried AFTER
// every built-in format by detectLogFormat; findLogFormat finds them too. The first of an id is
// kept (registering the id again returns it); each LogFormat lives as long as the program.
// Safe to call while other threads read registeredLogFormats(); at most 256.
const LogFormat& registerLogFormat(LogFormat format);
std::span<const LogFormat* const> registeredLogFormats();

// The format of the first line in head that matches one; nullptr when none does.
const LogFormat* detectLogFormat(std::string_view head, std::int64_t* line = nullptr);

} // namespace sv
