# The HTTP service (`wordsalvo serve`) in a slim image: the embedded lexicons (English,
# Dutch, Turkish) and the shipped leave tables are inside the package; it runs as a user
# without privileges. It listens on 0.0.0.0 (the container's port is published), so it
# needs API keys in a mounted configuration file (limits, [auth] api_keys, CORS, extra
# lexicons), or --open to serve everyone who reaches the port (a loud warning then):
#   docker build -t wordsalvo .
#   docker run --rm -p 8000:8000 -v $PWD/serve.toml:/etc/wordsalvo/serve.toml:ro \
#       wordsalvo --workers 2 --config /etc/wordsalvo/serve.toml
#   docker run --rm -p 127.0.0.1:8000:8000 wordsalvo --open   # a local try: http://localhost:8000/play
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN pip wheel --no-cache-dir --wheel-dir /wheels '.[serve]'

FROM python:3.11-slim
RUN useradd --system --create-home --uid 10001 wordsalvo
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER wordsalvo
ENV WORDSALVO_CACHE_DIR=/home/wordsalvo/.cache/wordsalvo PYTHONUNBUFFERED=1
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz').status != 200)"
ENTRYPOINT ["wordsalvo", "serve", "--host", "0.0.0.0", "--port", "8000"]
