#pragma once
// The exact arithmetic of DLPerf's Python scripts: Python's and NumPy's two different roundings,
// NumPy's pairwise mean and median, and Python's float repr for JSON output.

#include <span>
#include <string>
#include <vector>

namespace sv {

// round(x, 2) on a Python float: correctly rounded, ties to even on the exact binary value.
double roundPython2(double x);
// round(x, 2) on a numpy.float64: rint(x * 100) / 100, which differs from Python on near-ties
// (round(np.float64(2.675), 2) == 2.68 but round(2.675, 2) == 2.67).
double roundNumpy2(double x);
// The same to any number of decimals (NGC TF BERT's scripts average to 4).
double roundPython(double x, int digits);
double roundNumpy(double x, int digits);
// numpy.mean of a float64 array: pairwise summation, then one division.
double numpyMean(std::span<const double> values);
// numpy.median: the middle value, or numpy.mean of the two middle values. Reorders values.
double numpyMedianInPlace(std::span<double> values);
// numpyMedianInPlace for values that are all finite (no nan: a sorting network's min and max
// would misplace one): 4, 8, 16 and 32 values, the usual rank counts of a row, go through a
// branch-free sorting network, several times faster than a selection on this machine; any
// other count through numpyMedianInPlace. Reorders values.
double finiteMedianInPlace(std::span<double> values);
inline double numpyMedian(std::vector<double> values) {
    return numpyMedianInPlace(values);
}
// Python's repr(float): shortest round-trip digits, always with '.0' or an exponent.
std::string pythonFloatRepr(double x);
// printf's "%.*f" (and Python's '{:.Nf}': both round the exact binary value): throughput,
// speedup and percentages as the tables and notes show them.
std::string formatFixed(double v, int decimals);
// formatFixed for a person to read: a value that rounds to zero shows no sign ("0.0", never
// "-0.0", which reads as a loss where there is none).
std::string formatShown(double v, int decimals);

} // namespace sv
