"""The hub hands every waiting reader the newest value once the version moves, and times out otherwise."""

import threading

from device.hub import Hub


def test_publish_bumps_the_version():
    hub = Hub("start")
    assert hub.latest() == (0, "start")
    assert hub.publish("one") == 1
    assert hub.publish("two") == 2
    assert hub.latest() == (2, "two")


def test_a_reader_that_is_behind_gets_the_newest_value_at_once():
    hub = Hub(0)
    hub.publish(10)
    hub.publish(20)
    assert hub.wait_for_change(0, timeout=0) == (2, 20)


def test_wait_times_out_without_a_change():
    hub = Hub(0)
    hub.publish(1)
    assert hub.wait_for_change(1, timeout=0.01) is None


def test_waiting_readers_all_wake_on_publish():
    hub = Hub(None)
    ready = threading.Barrier(4)
    results = []

    def reader():
        ready.wait()
        results.append(hub.wait_for_change(0, timeout=10))

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for thread in threads:
        thread.start()
    ready.wait()
    hub.publish("news")
    for thread in threads:
        thread.join(5)
    assert results == [(1, "news")] * 3
