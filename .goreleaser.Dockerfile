# The image of a GoReleaser release (see .goreleaser.yaml): the mcpgen
# binary GoReleaser built for the platform, on a static base, as non-root.
FROM gcr.io/distroless/static-debian12:nonroot
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/mcpgen /usr/local/bin/mcpgen
ENTRYPOINT ["/usr/local/bin/mcpgen"]
