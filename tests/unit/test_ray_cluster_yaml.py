"""ray-cluster.yaml is a cluster-launcher file Ray accepts, and it gives pairs their hosts."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import ray.autoscaler
import yaml

from actors.nodes import PAIR_RESOURCE
from config.settings import ROOT

CONFIG = yaml.safe_load((ROOT / "ray-cluster.yaml").read_text())


def test_the_file_matches_rays_cluster_schema() -> None:
    schema = json.loads((Path(ray.autoscaler.__file__).parent / "ray-schema.json").read_text())
    jsonschema.validate(CONFIG, schema)  # raises on an unknown or misspelt field
    assert CONFIG["head_node_type"] in CONFIG["available_node_types"]


def test_pairs_run_on_workers_that_offer_the_pairs_resource_not_on_the_head() -> None:
    types = CONFIG["available_node_types"]
    assert types[CONFIG["head_node_type"]]["resources"][PAIR_RESOURCE] == 0
    hosts = [t for name, t in types.items() if name != CONFIG["head_node_type"]]
    assert hosts and all(t["resources"][PAIR_RESOURCE] > 0 and t["min_workers"] >= 1 for t in hosts)


def test_nodes_install_the_project_and_start_named_with_metrics() -> None:
    assert any("make install" in command for command in CONFIG["setup_commands"])
    for commands in (CONFIG["head_start_ray_commands"], CONFIG["worker_start_ray_commands"]):
        start = next(c for c in commands if "ray start" in c)
        assert "--node-name=" in start and "--metrics-export-port=" in start, start
    assert "--include-dashboard=false" in CONFIG["head_start_ray_commands"][-1]
