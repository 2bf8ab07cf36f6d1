"""The store: SQLModel tables, the database connection and the Alembic migrations.

SQLite (through aiosqlite) by default, PostgreSQL (through asyncpg) when ``GREGARIO_DATABASE_URL``
names it. The services above use these tables; nothing here knows Discord or the rule systems.
"""
