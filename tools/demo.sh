#!/usr/bin/env bash
# Installs what is missing, builds the main example, the FedAvg simulation and FedAvg on three
# in-process workers (the same results) with g++-12 into build/gcc, and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install-deps.sh
cmake -S . -B build/gcc -DCMAKE_CXX_COMPILER=g++-12 -DCMAKE_BUILD_TYPE=Release
cmake --build build/gcc -j2 --target ctff_example ctff_example_simulate_fedavg ctff_example_distributed_fedavg
./build/gcc/examples/ctff_example
./build/gcc/examples/ctff_example_simulate_fedavg
./build/gcc/examples/ctff_example_distributed_fedavg
