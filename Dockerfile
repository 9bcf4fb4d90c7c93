# syntax=docker/dockerfile:1

# Parlour's table server as a static binary on a distroless base.
#
#   docker build -t parlour .
#   docker run -p 8080:8080 -v parlour-data:/data parlour
#
# The web page is embedded in the binary (web/dist, committed), so no Node
# stage is needed. See docs/deploy.md.

# The build runs on the builder's own platform and cross-compiles (the
# binary is pure Go), so multi-platform builds need no emulation.
FROM --platform=$BUILDPLATFORM golang:1.26 AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOFLAGS=-buildvcs=false
# Modules first: this layer is rebuilt only when go.mod or go.sum change.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGETOS TARGETARCH
RUN --mount=type=cache,target=/root/.cache/go-build \
    GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -ldflags='-s -w' -o /parlour ./cmd/parlour
# The SQLite directory, owned by distroless' nonroot user (65532), so that a
# fresh named volume mounted there starts writable.
RUN mkdir -p /data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /parlour /parlour
COPY --from=build --chown=65532:65532 /data /data
USER nonroot:nonroot
VOLUME /data
EXPOSE 8080
ENTRYPOINT ["/parlour"]
CMD ["serve", "--addr", ":8080", "--db", "sqlite:/data/parlour.db"]
