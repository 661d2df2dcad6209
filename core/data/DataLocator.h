#pragma once
#include <string>
#include <vector>

namespace attnlab {

// Where real data is looked for, in order: an explicit folder (the --data-dir flag or the GUI's setting),
// $ATTNLAB_DATA_DIR, then the user's data folder ($XDG_DATA_HOME or ~/.local/share)/attnlab/datasets.
// Paths inside are those of the manifests ("sentiment/sst/train.txt").
class DataLocator {
public:
    static std::vector<std::string> searchPath(const std::string& explicitDir = {});
    static std::string userDataDir();
    // The first folder of the search path that holds `relative` (a file or folder); throws DataError
    // naming every place searched and how to get the data.
    static std::string locate(const std::string& relative, const std::string& explicitDir = {});
    static std::string join(const std::string& dir, const std::string& relative);
    // A file a setting names relative to the data folder (a preset's word vectors): as given when it exists or
    // is absolute, else where locate finds it; "" stays "".
    static std::string locateFile(const std::string& path, const std::string& explicitDir = {});
};

} // namespace attnlab
