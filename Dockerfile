# Two stages on Debian 12, matching the packages hack/install-deps.sh uses.
FROM debian:bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends \
      g++ cmake ninja-build pkg-config libcpprest-dev nlohmann-json3-dev libyaml-cpp-dev \
      libssl-dev prometheus-cpp-dev libspdlog-dev libsimdjson-dev libre2-dev libcurl4-openssl-dev \
      && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY CMakeLists.txt ./
COPY src src
COPY controller controller
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDRA_BUILD_TESTS=OFF \
 && cmake --build build -j 2 && strip build/dra-controller

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends \
      libcpprest2.10 libyaml-cpp0.7 libprometheus-cpp-core1.0 libspdlog1.10 \
      libfmt9 libsimdjson14 libre2-9 libcurl4 libssl3 ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/dra-controller /usr/local/bin/dra-controller
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/dra-controller"]
CMD ["run"]
