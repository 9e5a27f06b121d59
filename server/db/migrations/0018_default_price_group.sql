-- A fresh install has one default price group: every customer without a group is in it.
INSERT INTO "price_group" ("name", "discount_bp", "is_default")
SELECT 'Minorista', 0, true
WHERE NOT EXISTS (SELECT 1 FROM "price_group" WHERE "is_default");
