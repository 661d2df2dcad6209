#pragma once
#include <string>
#include <vector>

namespace attnlab {

class SweepPlan;

// A sweep's files, next to its run store so a cluster's tasks and the login node see the same place:
// <store dir>/sweeps/<sweep id>/
//   sweep.json        id, name, executor, main store, the spec, and each run's index, key and label
//   run-<i>.json      run i's full TrainConfig (what `attnlab-cli train --config` reads)
//   run-<i>.log       its standard error (progress lines, errors); run-<i>.out its --json result
//   task-<i>.sqlite   Slurm only: the run's own store until `sweep collect` merges it; task-<i>.exit its exit code
//   slurm.json        Slurm only: the submitted job arrays (SlurmExecutor)
class SweepFolder {
public:
    struct Entry {
        int index = 0;
        std::string key;
        std::string label;
    };
    struct Manifest {
        std::string id, name, executor, store;
        std::vector<Entry> runs;
    };

    explicit SweepFolder(std::string path);
    static std::string pathFor(const std::string& storePath, const std::string& sweepId);

    const std::string& path() const { return path_; }
    bool exists() const; // has a sweep.json
    // Creates the folder and writes sweep.json and every run's config. Throws std::runtime_error naming the file.
    void write(const SweepPlan& plan, const std::string& executor, const std::string& storePath) const;
    // Throws std::runtime_error naming the file, with a hint when there is no such sweep.
    Manifest read() const;

    std::string file(const std::string& name) const; // path_/name
    std::string configPath(int index) const;
    std::string logPath(int index) const;
    std::string resultPath(int index) const;
    std::string taskStorePath(int index) const;
    std::string exitPath(int index) const;

    static void writeText(const std::string& path, const std::string& text); // whole or not at all (temp + rename)
    static std::string readText(const std::string& path);                  // "" when missing

private:
    std::string path_;
};

} // namespace attnlab
