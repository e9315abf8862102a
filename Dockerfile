# warplint in a container, installed from its Debian package: for CI systems
# that run containers, and pre-commit's `warplint-docker` hook.
#
#   cmake --build build --target package     # build/warplint_<version>_amd64.deb
#   docker build -t warplint .
#   docker run --rm -v "$PWD:/src" warplint kernel.cu --
#
# The image has no CUDA toolkit: warplint parses against its bundled minimal
# CUDA declarations and gives no register-based occupancy verdicts
# (docs/install.md says what else differs). bench/install/fresh-debian.sh
# runs this file's RUN line in a fresh Debian root, where no Docker engine is.
FROM debian:bookworm-slim
COPY build/warplint_*_amd64.deb /tmp/
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends /tmp/warplint_*_amd64.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/warplint_*_amd64.deb
WORKDIR /src
ENTRYPOINT ["warplint"]
