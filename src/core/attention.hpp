// Attention normalisations shared by every experiment (docs/separation.md sections 1-2, 6).
#pragma once
#include <cstddef>

namespace attnlab {

// f_exp = softmax(v) = exp(v - max v) / <exp(v - max v), 1>: stable for any finite logits
// (docs/separation.md section 6, "Overflow"). Writes n values to out (out may alias v).
void softmax(const double* v, std::size_t n, double* out);

// f_lin = v / <v, 1>: linear attention, raw scores divided by their sum (no feature map).
// Throws std::domain_error when <v, 1> <= 0 or is not finite (spec section 6).
void linear_normalise(const double* v, std::size_t n, double* out);

// The two steps of those that can fail, for code that computes several normalisations in one pass
// with the same bits: max v (n >= 1; throws std::domain_error unless finite), and 1 / <v, 1> from the
// row sum (throws as linear_normalise does).
double softmax_shift(const double* v, std::size_t n);
double linear_inverse_sum(double row_sum);

}  // namespace attnlab
