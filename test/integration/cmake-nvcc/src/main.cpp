// Host code: launches the kernels through the wrappers defined in the .cu
// files.
void launch_reduce(const float *in, float *out, int n);
void launch_scale(float *data, float factor, int n);

int main() {
  launch_scale(nullptr, 2.0f, 0);
  launch_reduce(nullptr, nullptr, 0);
  return 0;
}
