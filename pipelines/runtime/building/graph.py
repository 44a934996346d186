"""The Beam graph of a build (`paranmt build` and `paranmt check-dataflow`)."""
from __future__ import annotations

from paranmt.pipelines.runtime.building.plan import BuildPlan, read_options


def build_pipeline(pipeline: beam.Pipeline, plan: BuildPlan, done: set[str]):
    """Compose the graph: Read -> Clean -> Xsim -> Translate -> Score -> Parse -> Write (the plan's stages), one
    element per shard; shards in `done` are not read again."""
    from paranmt.transforms.io.readers import ReadBitext, ReadShards
    from paranmt.transforms.io.writer import WriteShards

    config = plan.config
    if config.format == "shards":
        shards = pipeline | "ReadShards" >> ReadShards(plan.inputs, done)
    else:
        tasks = [t for t in plan.inputs if not t.shard_names() or not set(t.shard_names()) <= done]
        shards = pipeline | "ReadBitext" >> ReadBitext(tasks, read_options(config), done)
    for transform in plan.stages:
        shards = shards | transform
    return shards | "Write" >> WriteShards(config.output, plan.metadata)
