"""Each template compiled once per test process, not once per app the tests make.

Most tests make an app of their own (tests/conftest.py), and every app has a new Jinja environment
that would compile every template it draws again. Jinja's own bytecode cache, kept in memory for
the process, hands a later environment the code an earlier one compiled from the same source.

What must stay true: a template is reused only where compiling it again would give the same code.
The key holds the template's name and file, Jinja checks the source's checksum, and the key also
holds everything of the environment that the compiler reads (syntax, autoescape, extensions, and
each filter's and test's name and what it is passed), so an app set up differently compiles anew.
"""
from __future__ import annotations

from flask import Flask
from jinja2.bccache import Bucket, BytecodeCache


def compiler_settings(environment) -> tuple:
    """What of an environment the Jinja compiler reads while it turns a source into code."""
    def passed(functions) -> tuple:
        return tuple(sorted((name, str(getattr(function, "jinja_pass_arg", None)))
                            for name, function in functions.items()))
    return (
        environment.block_start_string, environment.block_end_string,
        environment.variable_start_string, environment.variable_end_string,
        environment.comment_start_string, environment.comment_end_string,
        environment.line_statement_prefix, environment.line_comment_prefix,
        environment.trim_blocks, environment.lstrip_blocks, environment.newline_sequence,
        environment.keep_trailing_newline, environment.optimized, environment.is_async,
        repr(environment.autoescape), repr(environment.finalize),
        tuple(sorted(environment.extensions)), getattr(environment, "newstyle_gettext", None),
        passed(environment.filters), passed(environment.tests),
    )


class InMemory(BytecodeCache):
    def __init__(self):
        self.compiled: dict[tuple, bytes] = {}

    def get_bucket(self, environment, name, filename, source) -> Bucket:
        key = repr((self.get_cache_key(name, filename), compiler_settings(environment)))
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])  # Jinja compares the checksum

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


def install() -> None:
    """Every app made in this process from now on gets the shared cache (Flask's jinja_options)."""
    Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": InMemory()}
