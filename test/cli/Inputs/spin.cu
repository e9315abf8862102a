// A file whose analysis does not end in any useful time: clang's constant
// evaluator, allowed billions of steps (-fconstexpr-steps), spins in a loop
// that polls nothing.
constexpr unsigned long long spin() {
  unsigned long long s = 0;
  for (unsigned long long i = 0; i < (1ull << 40); ++i)
    s += i ^ (s >> 3);
  return s;
}
static_assert(spin() != 1, "");
