#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs every Debian package (and the npm glTF validator) critter needs to build, test and
# benchmark. Idempotent: quiet and fast when everything is already present. Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config clang-format
  libglm-dev libsimdjson-dev nlohmann-json3-dev libcli11-dev libstb-dev
  libassimp-dev assimp-utils libtinygltf-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libepoxy-dev libegl-dev libegl-mesa0 libgl1-mesa-dri libgles-dev libgbm1 libglfw3-dev
  libgif-dev libjpeg-dev libpng-dev xvfb xauth libimgui-dev libxxhash-dev
  minetest-data
  pybind11-dev python3-dev python3-numpy python3-pytest python3-distributed
  clang-19 libclang-rt-19-dev llvm-19
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The Khronos glTF-Validator (npm) that checks every glTF critter writes; tests run it through
# scripts/validate_gltf.mjs. Node from any source will do: Debian's packages only when it is absent.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "deps: installing nodejs npm"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
validator_dir="$(cd "$(dirname "$0")/.." && pwd)/build/validator"
if [ ! -f "$validator_dir/node_modules/gltf-validator/package.json" ]; then
  echo "deps: installing gltf-validator"
  mkdir -p "$validator_dir"
  npm install --prefix "$validator_dir" --no-audit --no-fund --loglevel=error \
    gltf-validator@2.0.0-dev.3.10 >/dev/null
fi
