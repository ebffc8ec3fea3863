# gradtrace: API + playground in one image. Build: docker build -t gradtrace .
FROM node:20-bookworm-slim AS frontend
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
WORKDIR /app
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
COPY pyproject.toml README.md ./
COPY engine/ engine/
COPY server/ server/
RUN pip install .
COPY --from=frontend /app/frontend/dist /app/frontend/dist
ENV GRADTRACE_FRONTEND_DIR=/app/frontend/dist
RUN useradd --system --uid 10001 gradtrace
USER gradtrace
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
CMD ["python", "-m", "server", "--host", "0.0.0.0", "--port", "8000"]
