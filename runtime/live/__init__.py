"""What the browser watches: the recorder that stores and broadcasts a run's events, status
announcements, websocket consumers and routes, and the server-side view of big runs."""
