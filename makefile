# femgpu: PETSc-style entry points over the CMake build.
#   make              build everything (after installing Debian packages if missing)
#   make example      build the two tools it runs, lower the paper's hyperelasticity form,
#                     and apply a mass form with the fem_gpu Mat type
#   make test         build everything and run the tests (ctest) but those labelled slow
#   make test-slow    run the tests labelled slow (CI runs them after make test)
#   make install PREFIX=/opt/femgpu   a relocatable tree, debug info stripped (docs/install.md)
#   make sanitize     build with ASan/UBSan and run the form-compiler tests (parser fuzzing)
BUILD     ?= build
SANBUILD  ?= build-sanitize
JOBS      ?= 2
PREFIX    ?= /usr/local
CMAKE_ARGS ?=
MPI_ROOT_OK = OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

all: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@scripts/install-debian-deps.sh

# Configure output goes to a log: it is long and rarely read.
$(BUILD)/CMakeCache.txt:
	@mkdir -p $(BUILD)
	@echo "configuring $(BUILD)/ (log: $(BUILD)/configure.log)"
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS) > $(BUILD)/configure.log 2>&1 || \
	  { cat $(BUILD)/configure.log; rm -f $(BUILD)/CMakeCache.txt; exit 1; }

example: deps $(BUILD)/CMakeCache.txt
	@echo "building femgpu-form and femgpu-apply (log: $(BUILD)/example-build.log)"
	@cmake --build $(BUILD) -j $(JOBS) --target femgpu-form femgpu-apply > $(BUILD)/example-build.log 2>&1 || \
	  { tail -n 30 $(BUILD)/example-build.log; exit 1; }
	@echo "\$$ femgpu-form share/femgpu/forms/hyperelasticity.ufl --cell triangle --degree 6 --components 2"
	@$(BUILD)/femgpu-form share/femgpu/forms/hyperelasticity.ufl --cell triangle --degree 6 --components 2
	@echo "\$$ femgpu-apply -form_file share/femgpu/forms/mass.ufl -dm_plex_dim 2 -dm_plex_box_faces 4,4 -degree 2 -u_expr 'x[0]*x[1]' -v_expr 'x[0]'"
	@$(MPI_ROOT_OK) $(BUILD)/femgpu-apply -form_file share/femgpu/forms/mass.ufl \
	  -dm_plex_dim 2 -dm_plex_box_faces 4,4 -degree 2 -u_expr 'x[0]*x[1]' -v_expr 'x[0]'

test: all
	cd $(BUILD) && $(MPI_ROOT_OK) ctest --output-on-failure -j $(JOBS) -LE slow

test-slow: all
	cd $(BUILD) && $(MPI_ROOT_OK) ctest --output-on-failure -j $(JOBS) -L slow

install: all
	cmake --install $(BUILD) --prefix $(PREFIX) --strip

sanitize: deps
	cmake -S . -B $(SANBUILD) -DCMAKE_BUILD_TYPE=Debug -DFEMGPU_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build $(SANBUILD) -j $(JOBS) --target femgpu_unit_tests
	ASAN_OPTIONS=detect_leaks=0 $(SANBUILD)/tests/femgpu_unit_tests "[form],[ir],[derivative],[exactness],[json],[cache]"

clean:
	rm -rf $(BUILD) $(SANBUILD)

.PHONY: all deps example test test-slow install sanitize clean
