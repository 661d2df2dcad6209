#pragma once
// PRIVATE engine header: includes LibTorch.
#include <torch/torch.h>

#include <vector>

namespace attnlab {

// ADADELTA (Zeiler 2012), the thesis' optimiser (rho = 0.95). Written here because LibTorch's C++
// API (1.13) has Adam, SGD, RMSprop and Adagrad but no Adadelta. Update, per parameter x with grad g:
//   E[g^2] = rho E[g^2] + (1-rho) g^2
//   dx     = -sqrt(E[dx^2] + eps) / sqrt(E[g^2] + eps) * g
//   E[dx^2]= rho E[dx^2] + (1-rho) dx^2
//   x     += lr * dx
class AdadeltaOptimizer {
public:
    AdadeltaOptimizer(std::vector<torch::Tensor> parameters, double learningRate = 1.0, double rho = 0.95, double eps = 1e-6);
    void step();
    void zeroGrad();
    void setLearningRate(double rate) { learningRate_ = rate; }

private:
    std::vector<torch::Tensor> parameters_, squareGrad_, squareDelta_;
    double learningRate_, rho_, eps_;
};

} // namespace attnlab
