# Gregario: the Discord bot. CI checks the same steps (wheel -> fresh venv -> gregario --help),
# since Docker cannot build on the project's machines.
FROM python:3.11-slim

# Races live in the /data volume (set GREGARIO_DATABASE_URL to a postgresql+asyncpg:// URL to use PostgreSQL).
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    GREGARIO_DATABASE_URL=sqlite+aiosqlite:////data/gregario.sqlite3

WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
RUN pip install --no-cache-dir . && rm -rf /src

RUN useradd --create-home --uid 10001 gregario && mkdir /data && chown gregario /data
USER gregario
WORKDIR /home/gregario
VOLUME ["/data"]

CMD ["gregario", "run"]
