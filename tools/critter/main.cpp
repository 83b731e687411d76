// critter command-line tool. Placeholder entry point until the commands land.
#include <cstdio>

int main() {
  std::puts("critter");
  return 0;
}
