# wfs in a container: `wfs sandbox` and `wfs listen` beside your app in a compose file (docs/containers.md).
# Build it in this repository, from the CLI's package tarball:
#   npm ci && npm run pack:cli && docker build -t workflow-service-cli .
# The package bundles every dependency, so the image is Node and one tarball: nothing is fetched from a registry.
FROM node:20-alpine

COPY dist/workflow-service-cli-*.tgz /tmp/wfs/
RUN npm install --global /tmp/wfs/workflow-service-cli-*.tgz \
    && rm -rf /tmp/wfs /root/.npm

# The image's own unprivileged user (uid 1000): the servers need no root, and listen on ports above 1024.
USER node
WORKDIR /home/node

# The sandbox's and the receiver's ports in docs/compose.yaml.
EXPOSE 4010 4011

ENTRYPOINT ["wfs"]
CMD ["--help"]
