#include "core/data/DataLocator.h"

#include "core/data/DataError.h"
#include "core/data/TextFile.h"
#include "core/platform/FileInfo.h"
#include "core/platform/UserFolders.h"

#include <cstdlib>

namespace attnlab {

std::string DataLocator::userDataDir()
{
    const std::string base = UserFolders::data();
    return (base.empty() ? "./.local/share" : base) + "/attnlab/datasets";
}

std::vector<std::string> DataLocator::searchPath(const std::string& explicitDir)
{
    std::vector<std::string> dirs;
    if (!explicitDir.empty())
        dirs.push_back(explicitDir);
    if (const char* env = std::getenv("ATTNLAB_DATA_DIR"); env && *env)
        dirs.emplace_back(env);
    dirs.push_back(userDataDir());
    return dirs;
}

std::string DataLocator::join(const std::string& dir, const std::string& relative)
{
    if (dir.empty()) return relative;
    return dir.back() == '/' ? dir + relative : dir + "/" + relative;
}

std::string DataLocator::locate(const std::string& relative, const std::string& explicitDir)
{
    const auto dirs = searchPath(explicitDir);
    for (const auto& dir : dirs) {
        if (FileInfo::of(join(dir, relative)).exists())
            return dir;
    }
    std::string searched;
    for (const auto& dir : dirs)
        searched += (searched.empty() ? "" : ", ") + dir;
    throw DataError(relative, 0,
                    "not found in the data folders (" + searched +
                        "); set ATTNLAB_DATA_DIR or --data-dir, or fetch/import it (attnlab-cli fetch)");
}

std::string DataLocator::locateFile(const std::string& path, const std::string& explicitDir)
{
    if (path.empty() || TextFile::exists(path) || path.front() == '/')
        return path;
    return join(locate(path, explicitDir), path); // locate gives the folder
}

} // namespace attnlab
