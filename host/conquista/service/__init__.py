"""Boot to play: the systemd unit that starts `conquista play` and the udev rule that names the Pico."""
