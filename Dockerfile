# syntax=docker/dockerfile:1
#
# fray's images: one build, one image per service (each holds only its own binary), and the
# NATS server the services are tested against.
#   docker build --target encounter -t <registry>/fray-encounter:<tag> .
#   docker build --target resolver  -t <registry>/fray-resolver:<tag> .
#   docker build --target gateway   -t <registry>/fray-gateway:<tag> .
#   docker build --target nats      -t <registry>/fray-nats:<tag> .
# Static Go binaries (CGO_ENABLED=0, -trimpath), each module built on its own (GOWORK=off,
# its own go.sum), on distroless/static: no shell, no package manager, numeric user 65532.
# nats-server is built from the module services/platform requires (its go.sum checks the
# source), so the cluster runs exactly the version the tests run.
# Base images by their full names (podman and other engines refuse short names), each pinned
# by digest: the tag says which release, the digest that it is the very image this file was
# written against. deploy/images_test.go runs every `RUN ["go", "build", …]` of the build stage
# as written (in its WORKDIR, with these ENV) in ./scripts/test.sh and checks that the binaries
# are static, that the final stages run as non-root with no shell, and that every base is
# pinned so. deploy/k8s runs them.

FROM --platform=$BUILDPLATFORM docker.io/library/golang:1.26.8@sha256:6c2a5538f964f1c82f97ad14988bf05de100d922d159d0e398b54c7b0ca0c6c9 AS build
ARG TARGETOS
ARG TARGETARCH
ENV CGO_ENABLED=0 GOWORK=off GOOS=${TARGETOS} GOARCH=${TARGETARCH}
WORKDIR /src
# The modules' requirements first: a change of code does not download them again.
COPY gen/go.mod gen/go.sum gen/
COPY rules/go.mod rules/go.sum rules/
COPY services/platform/go.mod services/platform/go.sum services/platform/
COPY services/encounter/go.mod services/encounter/go.sum services/encounter/
COPY services/resolver/go.mod services/resolver/go.sum services/resolver/
COPY services/gateway/go.mod services/gateway/go.sum services/gateway/
COPY web/go.mod web/
WORKDIR /src/services/platform
RUN --mount=type=cache,target=/go/pkg/mod ["go", "mod", "download"]
WORKDIR /src/services/encounter
RUN --mount=type=cache,target=/go/pkg/mod ["go", "mod", "download"]
WORKDIR /src/services/resolver
RUN --mount=type=cache,target=/go/pkg/mod ["go", "mod", "download"]
WORKDIR /src/services/gateway
RUN --mount=type=cache,target=/go/pkg/mod ["go", "mod", "download"]
WORKDIR /src
COPY gen gen
COPY rules rules
COPY services services
COPY web web
WORKDIR /src/services/encounter
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build ["go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", "/out/encounter", "./cmd/encounter"]
WORKDIR /src/services/resolver
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build ["go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", "/out/resolver", "./cmd/resolver"]
WORKDIR /src/services/gateway
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build ["go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", "/out/gateway", "./cmd/gateway"]
# nats-server at the version of services/platform/go.mod (deploy/manifests_test.go checks that
# every module of the repository requires that same version).
WORKDIR /src/services/platform
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build ["go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w", "-o", "/out/nats-server", "github.com/nats-io/nats-server/v2"]

# NATS with JetStream (deploy/k8s: the StatefulSet "nats", which gives it its configuration and
# runs it as user 1000 with its volume's group).
FROM gcr.io/distroless/static-debian12:nonroot@sha256:b7bb25d9f7c31d2bdd1982feb4dafcaf137703c7075dbe2febb41c24212b946f AS nats
COPY --from=build /out/nats-server /nats-server
EXPOSE 4222 6222 8222
USER 65532:65532
ENTRYPOINT ["/nats-server"]

# The gateway: the page and EncounterService for browsers (Connect, gRPC-web), each call
# sent on to the encounter service, which authenticates it.
FROM gcr.io/distroless/static-debian12:nonroot@sha256:b7bb25d9f7c31d2bdd1982feb4dafcaf137703c7075dbe2febb41c24212b946f AS gateway
COPY --from=build /out/gateway /gateway
ENV FRAY_GATEWAY_LISTEN=:8080 FRAY_LOG_FORMAT=json
EXPOSE 8080
USER 65532:65532
ENTRYPOINT ["/gateway"]

# The resolver (RulesService).
FROM gcr.io/distroless/static-debian12:nonroot@sha256:b7bb25d9f7c31d2bdd1982feb4dafcaf137703c7075dbe2febb41c24212b946f AS resolver
COPY --from=build /out/resolver /resolver
ENV FRAY_RESOLVER_LISTEN=:7071 FRAY_LOG_FORMAT=json
EXPOSE 7071
USER 65532:65532
ENTRYPOINT ["/resolver"]

# The encounter service (EncounterService); the default target.
FROM gcr.io/distroless/static-debian12:nonroot@sha256:b7bb25d9f7c31d2bdd1982feb4dafcaf137703c7075dbe2febb41c24212b946f AS encounter
COPY --from=build /out/encounter /encounter
ENV FRAY_ENCOUNTER_LISTEN=:7072 FRAY_LOG_FORMAT=json
EXPOSE 7072
USER 65532:65532
ENTRYPOINT ["/encounter"]
