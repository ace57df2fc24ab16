"""common.beneath: opening, making directories and walking beneath a root, with openat2 and with the no-follow walk
the module falls back to where the kernel has no openat2 (each test runs both ways)."""
from __future__ import annotations

import errno
import os
import threading

import pytest

from common import beneath
from common.beneath import Refused, TooLarge, lexical, mkdirs_beneath, open_beneath, opened_dir, read_beneath, walk_beneath


@pytest.fixture(params=["openat2", "fallback"])
def kernel(request, monkeypatch) -> str:
    if request.param == "openat2":
        if not beneath._kernel_has_openat2():
            pytest.skip("this kernel has no openat2")
    else:
        monkeypatch.setattr(beneath, "_has_openat2", False)
    return request.param


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "root"
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "b" / "c.txt").write_text("c\n")
    (root / "top.txt").write_text("top\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("secret\n")
    os.symlink(outside / "secret", root / "abs-out")            # absolute, out
    os.symlink("../outside/secret", root / "rel-out")           # relative, out
    os.symlink(outside, root / "dir-out")
    os.symlink("a/b/c.txt", root / "inside")                    # stays inside
    os.symlink("../top.txt", root / "a" / "up-inside")           # climbs, but stays inside
    return root


def read(root, path, **kw) -> bytes:
    return read_beneath(root, path, max_bytes=1000, **kw)


def test_lexical_names_the_components_and_refuses_what_never_stays_inside():
    assert lexical("a/./b//c") == ["a", "b", "c"]
    assert lexical("a/b/../c") == ["a", "c"]
    for path, code in (("/etc/passwd", errno.EXDEV), ("..", errno.EXDEV), ("a/../../x", errno.EXDEV),
                       ("a/b/../../../../x", errno.EXDEV), ("", errno.EINVAL), ("a\x00b", errno.EINVAL)):
        with pytest.raises(Refused) as caught:
            lexical(path)
        assert caught.value.errno == code, path


def test_plain_paths_open_both_ways(tree, kernel):
    assert read(tree, "a/b/c.txt") == b"c\n"
    assert read(tree, "./a//b/../b/c.txt") == b"c\n"
    fd = open_beneath(tree, "a/b", os.O_RDONLY | os.O_DIRECTORY)
    try:
        assert read(fd, "c.txt") == b"c\n"  # a descriptor works as the root too
    finally:
        os.close(fd)


@pytest.mark.parametrize("path", ["/etc/passwd", "..", "../outside/secret", "a/b/../../../outside/secret",
                                  "abs-out", "rel-out", "dir-out/secret"])
def test_nothing_outside_is_ever_opened(tree, kernel, path):
    for symlinks in ("inside", "refuse"):
        with pytest.raises(Refused):
            read(tree, path, symlinks=symlinks)
        with pytest.raises(Refused):
            os.close(open_beneath(tree, path, os.O_PATH, symlinks=symlinks))


def test_a_link_that_stays_inside_is_followed_with_inside_and_refused_with_refuse(tree):
    if not beneath._kernel_has_openat2():
        pytest.skip("this kernel has no openat2")
    assert read(tree, "inside", symlinks="inside") == b"c\n"
    assert read(tree, "a/up-inside", symlinks="inside") == b"top\n"
    for path in ("inside", "a/up-inside"):
        with pytest.raises(Refused) as caught:
            read(tree, path, symlinks="refuse")
        assert caught.value.errno == errno.ELOOP


def test_without_openat2_no_link_is_followed_at_all(tree, monkeypatch):
    monkeypatch.setattr(beneath, "_has_openat2", False)
    for path in ("inside", "a/up-inside"):
        with pytest.raises(Refused, match="symbolic link"):
            read(tree, path, symlinks="inside")
    os.symlink("b", tree / "a" / "b-link")
    with pytest.raises(Refused, match="symbolic link"):
        read(tree, "a/b-link/c.txt", symlinks="inside")
    with pytest.raises(Refused):  # O_PATH | O_NOFOLLOW would open the link itself: refused too
        os.close(open_beneath(tree, "inside", os.O_PATH))


def test_a_fifo_never_hangs_a_reader(tree, kernel):
    os.mkfifo(tree / "pipe")
    outcome: list[BaseException | bytes] = []

    def reader():
        try:
            outcome.append(read(tree, "pipe"))
        except BaseException as exc:  # handed to the test's thread
            outcome.append(exc)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    thread.join(timeout=10)
    assert not thread.is_alive(), "reading a FIFO hung"
    assert isinstance(outcome[0], OSError) and "not a regular file" in str(outcome[0])


def test_size_limits_and_non_files(tree, kernel):
    (tree / "big").write_bytes(b"x" * 2000)
    with pytest.raises(TooLarge, match="2,000 bytes"):
        read(tree, "big")
    with pytest.raises(IsADirectoryError):
        read(tree, "a")
    with pytest.raises(FileNotFoundError):
        read(tree, "missing")


def test_opened_dir_lists_on_a_descriptor(tree, kernel):
    with opened_dir(tree, "a/b") as fd:
        assert sorted(os.listdir(fd)) == ["c.txt"]


def test_mkdirs_makes_each_missing_component_and_never_through_a_link_out(tree, kernel):
    fd = mkdirs_beneath(tree, "a/new/deeper")
    try:
        assert os.path.samestat(os.fstat(fd), os.stat(tree / "a" / "new" / "deeper"))
    finally:
        os.close(fd)
    os.close(mkdirs_beneath(tree, "a/new/deeper"))  # existing: fine
    os.close(mkdirs_beneath(tree, "."))
    outside = tree.parent / "outside"
    with pytest.raises(Refused):
        mkdirs_beneath(tree, "dir-out/made")
    with pytest.raises(Refused):
        mkdirs_beneath(tree, "../outside/made")
    assert sorted(os.listdir(outside)) == ["secret"]
    with pytest.raises(NotADirectoryError):
        mkdirs_beneath(tree, "top.txt/below")


def test_mkdirs_follows_a_link_that_stays_inside(tree):
    if not beneath._kernel_has_openat2():
        pytest.skip("this kernel has no openat2")
    os.symlink("a/b", tree / "b-link")
    os.close(mkdirs_beneath(tree, "b-link/made"))
    assert (tree / "a" / "b" / "made").is_dir()
    with pytest.raises(Refused):
        mkdirs_beneath(tree, "b-link/made", symlinks="refuse")


def test_walk_lists_every_directory_and_enters_no_link(tree, kernel):
    seen = {rel: sorted(entry.name for entry in entries) for rel, _fd, entries in walk_beneath(tree)}
    assert seen == {"": ["a", "abs-out", "dir-out", "inside", "rel-out", "top.txt"],
                    "a": ["b", "up-inside"], "a/b": ["c.txt"]}


def test_walk_is_pruned_by_removing_entries_and_stat_works_on_the_descriptor(tree, kernel):
    sizes = {}
    for rel, fd, entries in walk_beneath(tree):
        for entry in entries:
            if entry.is_file(follow_symlinks=False):
                sizes[f"{rel}/{entry.name}".lstrip("/")] = os.stat(entry.name, dir_fd=fd).st_size
        entries[:] = [entry for entry in entries if entry.name != "b"]
    assert sizes == {"top.txt": 4}


def test_walk_skips_a_directory_that_vanished_or_became_a_link_meanwhile(tree, kernel):
    (tree / "gone").mkdir()
    (tree / "swapped").mkdir()
    seen = []
    for rel, _fd, _entries in walk_beneath(tree):
        seen.append(rel)
        if rel == "":
            os.rmdir(tree / "gone")
            os.rmdir(tree / "swapped")
            os.symlink(tree.parent / "outside", tree / "swapped")
    assert sorted(seen) == ["", "a", "a/b"]


def test_walk_of_a_deep_tree_holds_few_descriptors(tmp_path, kernel):
    root = tmp_path / "deep"
    path = root
    for i in range(60):
        path = path / f"d{i}"
    path.mkdir(parents=True)
    before = len(os.listdir("/proc/self/fd"))
    most = 0
    for _rel, _fd, _entries in walk_beneath(root):
        most = max(most, len(os.listdir("/proc/self/fd")) - before)
    assert most <= 3
    assert len(os.listdir("/proc/self/fd")) == before


def test_backslashes_and_colons_are_part_of_a_posix_name(tmp_path):
    # An agent's file named `a\b` or `a:b` is that file, not `a/b` or an absolute Windows path.
    (tmp_path / "a\\b").write_text("backslash")
    (tmp_path / "a:b").write_text("colon")
    assert beneath.read_beneath(tmp_path, "a\\b", max_bytes=100) == b"backslash"
    assert beneath.read_beneath(tmp_path, "a:b", max_bytes=100) == b"colon"
