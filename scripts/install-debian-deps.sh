#!/usr/bin/env bash
# Installs what femgpu needs on Debian 12 / Ubuntu, from the distribution's packages:
# PETSc 3.18 (with OpenMPI) and its Python bindings (petsc4py, for examples/python),
# Catch2, CMake, and OpenCL on the CPU through PoCL.
# The CUDA toolkit (nvcc, NVRTC) is not a Debian 12 package of a usable version: when
# /usr/local/cuda is absent femgpu builds without its CUDA backend.
# Does nothing when everything is already installed.
set -euo pipefail
packages=(petsc-dev libpetsc3.18-dev-examples python3-petsc4py catch2 cmake g++ make pkg-config pocl-opencl-icd ocl-icd-opencl-dev opencl-headers)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "install-debian-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
