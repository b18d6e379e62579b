#pragma once
// Tells whether a directory lies on a file system where inotify may see nothing: a network or
// cluster mount (NFS, SMB/CIFS, Lustre, GPFS, CephFS, FUSE...) that another host writes to.
// The live view polls there. statfs can block on a hung mount: call it on a worker thread.

#include <cstdint>
#include <filesystem>
#include <string>

namespace sv::ui {

// The file system's name ("nfs", "lustre"...) when it is one of those; empty when it is local
// or cannot be told.
std::string remoteFileSystem(const std::filesystem::path& directory);
// The same for statfs's f_type.
std::string remoteFileSystemName(std::uint32_t statfsType);

} // namespace sv::ui
