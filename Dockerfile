# Stages on Debian 12, matching the packages hack/install-deps.sh uses:
#   runtime    the slim base every image ships on (runtime libraries only)
#   prebuilt   runtime + a dra-controller binary built on the host by
#              `make build` (hack/image/build.sh --prebuilt; `make test` uses
#              it, so the project is compiled once per flavour)
#   build      compiles dra-controller from source inside the container
#   release    runtime + the binary from `build`; the default target, what
#              `docker build .` and `make image` produce
# Builds with `docker build .` (BuildKit: the cache mount below needs it) and
# with `make image` (buildah, no Docker engine; hack/image/build.sh). The
# ccache cache mount keeps compiled objects between builds.
FROM debian:bookworm-slim AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends \
      libyaml-cpp0.7 libprometheus-cpp-core1.0 libspdlog1.10 \
      libfmt9 libsimdjson14 libre2-9 libssl3 ca-certificates && rm -rf /var/lib/apt/lists/*
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/dra-controller"]
CMD ["run"]

# The build context is a directory holding only the stripped binary.
FROM runtime AS prebuilt
COPY dra-controller /usr/local/bin/dra-controller

FROM debian:bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends \
      g++ cmake ninja-build pkg-config ccache nlohmann-json3-dev libyaml-cpp-dev \
      libssl-dev prometheus-cpp-dev libspdlog-dev libsimdjson-dev libre2-dev \
      libboost-dev \
      && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY CMakeLists.txt ./
COPY src src
COPY controller controller
# Release at -O2, the level the tests run at: GCC 12 at -O3 (CMake's Release
# default) reports a false -Wrestrict in std::string concatenation
# (controller/cel/StringFormat.cc), which -Werror turns into a failed build.
RUN --mount=type=cache,id=dra-controller-ccache,target=/ccache,sharing=locked \
    export CCACHE_DIR=/ccache CCACHE_MAXSIZE=2G \
 && cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDRA_BUILD_TESTS=OFF \
      -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
 && cmake --build build -j 2 && strip build/dra-controller && ccache --show-stats

FROM runtime AS release
COPY --from=build /src/build/dra-controller /usr/local/bin/dra-controller
