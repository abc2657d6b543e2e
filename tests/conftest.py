from pathlib import Path

# Real data nobody here wrote, beside the checkout (CI has it there too); never copied in.
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
