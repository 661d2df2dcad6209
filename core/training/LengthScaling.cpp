#include "core/training/LengthScaling.h"

#include "core/config/Registry.h"
#include "core/config/TrainConfig.h"
#include "core/nn/TorchCompat.h"
#include "core/nn/models/ModelFactory.h"
#include "core/nn/training/Optimizer.h"
#include "core/platform/ProcessMemory.h"
#include "core/training/ComputeDevice.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <new>
#include <sstream>

namespace attnlab {
namespace {

constexpr int kVocabulary = 1000;
constexpr int kClasses = 2;

double bytesToMib(std::int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

std::string gib(std::int64_t bytes)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB";
    return s.str();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? 0.0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The self-attention classifiers: they take a position technique (the recurrent and convolutional ones do not).
bool isAttention(const ModelConfig& m)
{
    return Registry::takesPosition(m.model);
}

} // namespace

std::vector<LengthScaling::Family> LengthScaling::families(const Settings& settings)
{
    const int longest = settings.lengths.empty() ? 512 : *std::max_element(settings.lengths.begin(), settings.lengths.end());
    auto make = [&](const std::string& model, int heads = 1) {
        ModelConfig m;
        m.model = model;
        m.dModel = settings.dModel;
        m.layers = 1;
        m.dropoutKeep = 1.0; // the cost of the model, not of dropout's masks
        m.maxLength = std::max(longest, 512);
        m.vocabularySize = kVocabulary;
        m.numClasses = kClasses;
        m.position = isAttention(m) ? settings.position : "none";
        m.heads = heads;
        return m;
    };
    std::vector<Family> list = {
        {"rnn", "RNN", make("rnn")},
        {"lstm", "LSTM", make("lstm")},
        {"gru", "GRU", make("gru")},
        {"bilstm", "BiLSTM", make("bilstm")},
        {"kim-cnn", "Kim's CNN", make("kim-cnn")}, // the thesis' CNN pads to one fixed length
        {"ssan", "SSAN", make("ssan")},
        {"transformer", "Transformer", make("transformer", settings.heads)},
        {"transformer-local", "Transformer, window", make("transformer", settings.heads)},
    };
    list.back().config.attentionWindow = settings.window;
    list.back().config.globalTokens = settings.globalTokens;
    list.back().label += " " + std::to_string(settings.window) +
                         (settings.globalTokens > 0 ? " + " + std::to_string(settings.globalTokens) + " global" : std::string());
    return list;
}

std::string LengthScaling::problem(const Settings& s)
{
    if (s.lengths.empty())
        return "lengths: give at least one length";
    for (const int length : s.lengths)
        if (length < 2 || length > 65536)
            return "lengths: each length must be 2 to 65536 tokens (got " + std::to_string(length) + ")";
    if (s.batchSize < 1 || s.batchSize > 1024)
        return "batch_size: 1 to 1024 (got " + std::to_string(s.batchSize) + ")";
    if (s.dModel < 2 || s.dModel > 4096)
        return "d_model: 2 to 4096 (got " + std::to_string(s.dModel) + ")";
    if (s.heads < 1 || s.dModel % s.heads != 0)
        return "heads: must divide d_model " + std::to_string(s.dModel) + " (got " + std::to_string(s.heads) + ")";
    if (s.window < 1)
        return "attention_window: the sliding-window family needs a window of at least 1 (got " + std::to_string(s.window) + ")";
    if (s.minSteps < 1 || s.maxSteps < s.minSteps)
        return "steps: at least 1 timed step, and no more than the most (got " + std::to_string(s.minSteps) + ")";
    return {};
}

std::int64_t LengthScaling::estimatedBytes(const Family& family, int length, const Settings& settings)
{
    const auto& m = family.config;
    const std::int64_t b = settings.batchSize, t = length, d = m.dModel, layers = std::max(1, m.layers);
    const std::int64_t ffn = m.ffnHidden > 0 ? m.ffnHidden : 4 * d;
    std::int64_t bytes = b * t * (d * 64 + ffn * 4) * 4 * layers; // activations, their gradients, the layers' buffers
    if (isAttention(m)) {
        const std::int64_t heads = m.heads;
        if (m.attentionWindow > 0) { // gathered keys, values and their products: [B, H, T, M, dh], forward and backward
            const std::int64_t width = m.globalTokens + 2 * m.attentionWindow + 1;
            bytes += 8 * b * t * width * d * 4 * layers + m.globalTokens * b * t * heads * 4 * 8;
        } else { // scores, scaled, masked, softmax and their gradients: [B, H, T, T] floats, about ten of them
            bytes += 10 * b * heads * t * t * 4 * layers;
            if (m.position == "rpr")
                bytes += 3 * b * heads * t * t * 8 * layers; // the relative index, gathered, as longs
        }
    }
    return bytes;
}

double LengthScaling::logLogSlope(const std::vector<double>& x, const std::vector<double>& y)
{
    std::vector<std::pair<double, double>> points;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i)
        if (x[i] >= 512 && y[i] > 0)
            points.emplace_back(std::log(x[i]), std::log(y[i]));
    if (points.size() < 2) {
        points.clear();
        for (std::size_t i = x.size() / 2; i < x.size() && i < y.size(); ++i)
            if (x[i] > 0 && y[i] > 0)
                points.emplace_back(std::log(x[i]), std::log(y[i]));
    }
    if (points.size() < 2)
        return 0.0;
    double mx = 0.0, my = 0.0;
    for (const auto& [lx, ly] : points) {
        mx += lx;
        my += ly;
    }
    mx /= static_cast<double>(points.size());
    my /= static_cast<double>(points.size());
    double sxy = 0.0, sxx = 0.0;
    for (const auto& [lx, ly] : points) {
        sxy += (lx - mx) * (ly - my);
        sxx += (lx - mx) * (lx - mx);
    }
    return sxx > 0.0 ? sxy / sxx : 0.0;
}

LengthScaling::Result LengthScaling::measure(const Family& family, const Settings& settings,
                                             const std::function<void(int, int, const std::string&)>& progress,
                                             const std::function<bool()>& cancelled)
{
    using Clock = std::chrono::steady_clock;
    if (auto p = problem(settings); !p.empty())
        throw std::invalid_argument(p);
    if (auto p = family.config.validate(); !p.empty())
        throw std::invalid_argument(p);
    ComputeDevice::setThreads(settings.threads);
    const std::string deviceName = ComputeDevice::resolve(settings.device);
    const torch::Device device(deviceName);
    torch::manual_seed(settings.seed);
    auto lengths = settings.lengths;
    std::sort(lengths.begin(), lengths.end());
    lengths.erase(std::unique(lengths.begin(), lengths.end()), lengths.end());

    Result r;
    r.family = family;
    r.device = ComputeDevice::describe(deviceName);
    auto network = ModelFactory::create(family.config);
    network->to(device);
    r.summary = network->summary();
    r.parameters = network->trainableParametersWithoutEmbedding();
    std::vector<torch::Tensor> trainable;
    for (const auto& p : network->parameters())
        if (p.requires_grad())
            trainable.push_back(p);
    TrainConfig optimizerConfig;
    optimizerConfig.optimizer = "adam";
    Optimizer optimizer(optimizerConfig, trainable);

    std::int64_t limit = settings.memoryLimitBytes;
    if (limit <= 0) {
        if (device.is_cuda()) {
            const auto info = ComputeDevice::memoryInfo(deviceName);
            limit = info ? static_cast<std::int64_t>(0.9 * static_cast<double>(info->first)) : 0;
        } else {
            limit = static_cast<std::int64_t>(0.8 * static_cast<double>(ProcessMemory::availableBytes()));
        }
    }
    r.memoryKind = device.is_cuda() ? "gpu allocator peak over the memory held before the length" :
                                      "resident set high-water mark over the resident set before the length";
    auto sync = [&] {
        if (device.is_cuda())
            torch::cuda::synchronize();
    };

    // One untimed step at the shortest length first: the allocator's first blocks, the BLAS's buffers and the
    // optimizer's state are made once per process and would otherwise count as the shortest length's memory.
    {
        const int first = lengths.front();
        const auto ids = torch::randint(1, kVocabulary, {settings.batchSize, first}, torch::TensorOptions().dtype(torch::kLong)).to(device);
        const auto mask = torch::ones({settings.batchSize, first}, torch::TensorOptions().dtype(torch::kBool)).to(device);
        const auto hostLengths = torch::full({settings.batchSize}, first, torch::TensorOptions().dtype(torch::kLong));
        network->train();
        network->zero_grad(/*set_to_none=*/false);
        torch::nn::functional::cross_entropy(network->forward(ids, mask, hostLengths), torch::zeros({settings.batchSize}, ids.options()))
            .backward();
        optimizer.step(1e-3);
        sync();
    }
    std::string skipReason;
    for (std::size_t n = 0; n < lengths.size(); ++n) {
        const int length = lengths[n];
        Point point;
        point.length = length;
        if (cancelled && cancelled())
            break;
        const std::int64_t need = estimatedBytes(family, length, settings);
        if (skipReason.empty() && limit > 0 && need > limit)
            skipReason = "length " + std::to_string(length) + " needs about " + gib(need) + " by estimate, " + gib(limit) +
                         " can be used";
        if (!skipReason.empty()) {
            point.skipped = skipReason;
            r.points.push_back(point);
            if (progress)
                progress(static_cast<int>(n + 1), static_cast<int>(lengths.size()), family.id + " at " + std::to_string(length) + ": skipped");
            continue;
        }
        try {
            const auto ids = torch::randint(1, kVocabulary, {settings.batchSize, length}, torch::TensorOptions().dtype(torch::kLong)).to(device);
            const auto mask = torch::ones({settings.batchSize, length}, torch::TensorOptions().dtype(torch::kBool)).to(device);
            const auto hostLengths = torch::full({settings.batchSize}, length, torch::TensorOptions().dtype(torch::kLong));
            const auto labels = torch::randint(0, kClasses, {settings.batchSize}, torch::TensorOptions().dtype(torch::kLong)).to(device);
            if (device.is_cuda())
                torch_compat::resetCudaPeak(device.index());
            ProcessMemory::resetPeak();
            const std::int64_t before = device.is_cuda() ? ComputeDevice::memoryInUse(deviceName).value_or(0) : ProcessMemory::residentBytes();
            network->train();
            auto trainStep = [&] {
                network->zero_grad(/*set_to_none=*/false);
                auto loss = torch::nn::functional::cross_entropy(network->forward(ids, mask, hostLengths), labels);
                loss.backward();
                optimizer.step(1e-3);
            };
            auto timed = [&](const std::function<void()>& work) {
                work(); // warm-up: the allocator's first blocks, the BLAS's buffers
                sync();
                std::vector<double> ms;
                const auto start = Clock::now();
                while (static_cast<int>(ms.size()) < settings.maxSteps) {
                    if (cancelled && cancelled())
                        break;
                    const auto t0 = Clock::now();
                    work();
                    sync();
                    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
                    if (static_cast<int>(ms.size()) >= settings.minSteps &&
                        std::chrono::duration<double>(Clock::now() - start).count() >= settings.minSeconds)
                        break;
                }
                return median(ms);
            };
            point.trainMs = timed(trainStep);
            if (device.is_cuda()) {
                if (const auto peak = torch_compat::cudaPeakBytes(device.index()))
                    point.peakMib = bytesToMib(*peak - before);
            } else {
                point.peakMib = bytesToMib(ProcessMemory::peakResidentBytes() - before);
            }
            network->eval();
            {
                torch::NoGradGuard noGrad;
                point.forwardMs = timed([&] { (void)network->forward(ids, mask, hostLengths); });
            }
        } catch (const std::bad_alloc&) {
            skipReason = "length " + std::to_string(length) + " ran out of memory";
            point.skipped = skipReason;
        } catch (const c10::Error& e) {
            const std::string what = e.what_without_backtrace();
            if (what.find("out of memory") == std::string::npos && what.find("alloc") == std::string::npos)
                throw;
            skipReason = "length " + std::to_string(length) + " ran out of memory";
            point.skipped = skipReason;
        }
        r.points.push_back(point);
        if (progress)
            progress(static_cast<int>(n + 1), static_cast<int>(lengths.size()), family.id + " at " + std::to_string(length));
    }
    std::vector<double> x, train, forward;
    for (const auto& p : r.points)
        if (p.skipped.empty() && p.trainMs > 0) {
            x.push_back(p.length);
            train.push_back(p.trainMs);
            forward.push_back(p.forwardMs);
        }
    r.trainSlope = logLogSlope(x, train);
    r.forwardSlope = logLogSlope(x, forward);
    return r;
}

} // namespace attnlab
