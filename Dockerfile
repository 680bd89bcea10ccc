# syntax=docker/dockerfile:1
#
# fray's service images: one build, one image per service (each holds only its own binary).
#   docker build --target encounter -t <registry>/fray-encounter:<tag> .
#   docker build --target resolver  -t <registry>/fray-resolver:<tag> .
#   docker build --target gateway   -t <registry>/fray-gateway:<tag> .
# Static Go binaries (CGO_ENABLED=0, -trimpath), each module built on its own (GOWORK=off,
# its own go.sum), on distroless/static: no shell, no package manager, numeric user 65532.
# deploy/images_test.go runs every `RUN ["go", "build", …]` of the build stage as written
# (in its WORKDIR, with these ENV) in ./scripts/test.sh and checks that the binaries are
# static, and that the final stages run as non-root with no shell. deploy/k8s runs them.

FROM --platform=$BUILDPLATFORM golang:1.26.8 AS build
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

# The gateway: the page and EncounterService for browsers (Connect, gRPC-web), each call
# sent on to the encounter service, which authenticates it.
FROM gcr.io/distroless/static-debian12:nonroot AS gateway
COPY --from=build /out/gateway /gateway
ENV FRAY_GATEWAY_LISTEN=:8080 FRAY_LOG_FORMAT=json
EXPOSE 8080
USER 65532:65532
ENTRYPOINT ["/gateway"]

# The resolver (RulesService).
FROM gcr.io/distroless/static-debian12:nonroot AS resolver
COPY --from=build /out/resolver /resolver
ENV FRAY_RESOLVER_LISTEN=:7071 FRAY_LOG_FORMAT=json
EXPOSE 7071
USER 65532:65532
ENTRYPOINT ["/resolver"]

# The encounter service (EncounterService); the default target.
FROM gcr.io/distroless/static-debian12:nonroot AS encounter
COPY --from=build /out/encounter /encounter
ENV FRAY_ENCOUNTER_LISTEN=:7072 FRAY_LOG_FORMAT=json
EXPOSE 7072
USER 65532:65532
ENTRYPOINT ["/encounter"]
