#include "ui/browse/remotefilesystem.h"

#include <sys/vfs.h>

#include <utility>

namespace sv::ui {

std::string remoteFileSystemName(std::uint32_t statfsType) {
    // f_type magic numbers, as in linux/magic.h and the file systems' own sources (not all of
    // them are in the kernel headers: Lustre, GPFS and BeeGFS live out of tree).
    static constexpr std::pair<std::uint32_t, const char*> kRemote[] = {
        {0x6969, "nfs"},        {0x517B, "smb"},       {0xFF534D42, "cifs"},  {0xFE534D42, "smb2"},
        {0x0BD00BD0, "lustre"}, {0x47504653, "gpfs"},  {0x00C36400, "ceph"},  {0x65735546, "fuse"},
        {0x01021997, "9p"},     {0x5346414F, "afs"},   {0x6B414653, "afs"},   {0x73757245, "coda"},
        {0x19830326, "beegfs"}, {0xAAD7AAEA, "panfs"}, {0x7461636F, "ocfs2"}, {0x01161970, "gfs2"},
    };
    for (const auto& [magic, name] : kRemote)
        if (magic == statfsType) return name;
    return {};
}

std::string remoteFileSystem(const std::filesystem::path& directory) {
    struct statfs st {};
    if (::statfs(directory.c_str(), &st) != 0) return {};
    return remoteFileSystemName(static_cast<std::uint32_t>(st.f_type));
}

} // namespace sv::ui
