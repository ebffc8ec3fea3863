# gradtrace's images. `docker build -t gradtrace .` builds the api (the last stage, `runtime`): the server with the
# built playground, as a non-root user, with nothing to build anything in it. `--target web` builds nginx with the
# playground's assets and deploy/nginx/ (docker-compose.yml builds both).

# -- the playground: node builds it, nothing of node goes further ---------------------------------------------------
FROM node:20-bookworm-slim AS frontend
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
# a .gz beside each text asset, for nginx's gzip_static: compressed once, here, at the highest level
RUN npm run build \
    && find dist -type f \( -name '*.js' -o -name '*.css' -o -name '*.svg' -o -name '*.html' \) -exec gzip -9 -k {} +

# -- the Python environment, built apart: the runtime gets the finished virtualenv and no installer ---------------
# The full image has the C compiler for engine/numerics/fma_chain.c (setup.py); the runtime gets the built library
# only (it needs libc and libm, which the slim image has), and no compiler.
FROM python:3.11-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine/ engine/
COPY server/ server/
RUN python -m venv /opt/gradtrace \
    && /opt/gradtrace/bin/pip install . \
    && /opt/gradtrace/bin/pip uninstall --yes pip setuptools

# -- nginx in front of the replicas (docker-compose.yml's `nginx`; deploy/k8s's `web`) -----------------------------
FROM nginxinc/nginx-unprivileged:1.27-alpine AS web
# the image's own site would answer on the same port first
USER 0
RUN rm /etc/nginx/conf.d/default.conf
USER 101
COPY --from=frontend /src/frontend/dist /usr/share/nginx/gradtrace
COPY deploy/nginx/gradtrace.conf.template /etc/nginx/templates/gradtrace.conf.template
ENV NGINX_ENVSUBST_FILTER=^NGINX_ \
    NGINX_LISTEN=8080 \
    NGINX_API_SERVERS="server api:8000;" \
    NGINX_STATIC_ROOT=/usr/share/nginx/gradtrace \
    NGINX_ACCESS_LOG=/dev/stdout \
    NGINX_MAX_BODY_SIZE=256k \
    NGINX_HEADER_BUFFERS="4 16k"
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/favicon.svg"]

# -- the api: the last stage, so a plain `docker build .` makes it --------------------------------------------------
FROM python:3.11-slim-bookworm AS runtime
# The base image's own installer goes too: the final image runs gradtrace and installs nothing.
RUN python -m pip uninstall --yes --no-cache-dir pip setuptools wheel \
    && useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent gradtrace
COPY --from=build /opt/gradtrace /opt/gradtrace
COPY --from=frontend /src/frontend/dist /opt/gradtrace/frontend
ENV PATH=/opt/gradtrace/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    GRADTRACE_FRONTEND_DIR=/opt/gradtrace/frontend
WORKDIR /opt/gradtrace
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["python", "-m", "server", "--host", "0.0.0.0", "--port", "8000"]
