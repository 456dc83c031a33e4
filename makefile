# femgpu: PETSc-style entry points over the CMake build.
#   make            build (after installing Debian packages if missing)
#   make example    build and run the main example
#   make test       build and run every test (ctest)
#   make sanitize   build with ASan/UBSan and run the form-compiler tests (parser fuzzing)
BUILD     ?= build
SANBUILD  ?= build-sanitize
JOBS      ?= 2
CMAKE_ARGS ?=

all: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@share/femgpu/scripts/install-debian-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS)

example: all
	$(BUILD)/femgpu-form share/femgpu/forms/hyperelasticity.ufl --cell triangle --degree 6 --components 2
	$(BUILD)/femgpu-form share/femgpu/forms/laplace.ufl --cell tetrahedron --degree 2 --ir
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $(BUILD)/femgpu-apply -form_file share/femgpu/forms/mass.ufl \
	  -dm_plex_dim 2 -dm_plex_box_faces 4,4 -degree 2 -u_expr 'x[0]*x[1]' -v_expr 'x[0]'

test: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

sanitize: deps
	cmake -S . -B $(SANBUILD) -DCMAKE_BUILD_TYPE=Debug -DFEMGPU_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build $(SANBUILD) -j $(JOBS) --target femgpu_unit_tests
	ASAN_OPTIONS=detect_leaks=0 $(SANBUILD)/tests/femgpu_unit_tests "[form],[ir],[derivative],[exactness],[json],[cache]"

clean:
	rm -rf $(BUILD) $(SANBUILD)

.PHONY: all deps example test sanitize clean
